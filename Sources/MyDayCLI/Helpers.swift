import ArgumentParser
import Foundation
import MyDayKit

/// A failure the CLI reports in one sentence.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Uploads what the queue holds now, printing progress; an unreachable server leaves it queued.
func sendQueued(_ workspace: Workspace) async throws {
    let summary = try await workspace.core.uploads.sendDue(evenIfNotDue: true)
    if summary.retrying > 0 || summary.pausedBecause != nil {
        Output().note("Kept on this device; `myday sync` sends it later.")
    }
}

func timeZone(_ identifier: String?) throws -> TimeZone {
    guard let identifier else { return .current }
    guard let zone = TimeZone(identifier: identifier) else { throw ValidationError("\(identifier) is not a time zone.") }
    return zone
}

func parseDate(_ text: String) throws -> Date {
    if let date = try? Date(text, strategy: .iso8601) { return date }
    throw ValidationError("\(text) is not an ISO 8601 date-time, e.g. 2026-11-21T08:30:00Z.")
}

/// What a one-line listing says of an entry: its title, or the start of its transcript.
func headline(_ entry: LocalEntry) -> String {
    entry.title ?? entry.transcriptClean.map { String($0.prefix(60)) } ?? ""
}

/// An entry's state in a listing: a long recording being transcribed says how far the server is.
func statusText(_ entry: LocalEntry) -> String {
    switch entry.state {
    case .queued: "queued"
    case .uploading: "uploading"
    case .uploadFailed: "upload refused"
    case .pendingUpload: "waiting for audio"
    case .uploaded: "uploaded"
    case .transcribing: entry.transcriptionPercent.map { "transcribing \($0)%" } ?? "transcribing"
    case .transcribed: entry.noSpeech ? "no speech" : "transcribed"
    case .failed: "failed"
    }
}
