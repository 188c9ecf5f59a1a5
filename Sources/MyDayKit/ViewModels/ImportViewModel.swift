import Foundation
import MyDayModels
import Observation

/// Import on a phone: audio files picked in Files or shared with the app, and Day One exports, each shown with what
/// became of it. Files are read, hashed and copied into the queue away from the main actor; the upload queue then
/// sends them like recordings made here (`DiaryImport` holds the rules: the recording time, once per file).
@MainActor
@Observable
public final class ImportViewModel {
    /// One file (or journal entry) of the import.
    public struct Row: Identifiable, Equatable, Sendable {
        /// Where the file is: being read, queued (it is then sent with the other uploads), known, or refused.
        public enum State: Equatable, Sendable {
            case reading
            /// Queued as an entry of this moment.
            case queued(Date)
            case alreadyWaiting
            case alreadyInTheDiary
            case failed(String)
        }

        public let id: String
        public let name: String

        /// The file was refused; its line says why, in red.
        public var isFailure: Bool {
            if case .failed = state { return true }
            return false
        }
        public var state: State
    }

    public private(set) var rows: [Row] = []
    public private(set) var isWorking = false

    private let core: ClientCore
    private let timeZone: TimeZone

    public init(core: ClientCore, timeZone: TimeZone = .current) {
        self.core = core
        self.timeZone = timeZone
    }

    /// Imports files another app shared with My Day, then removes the copies the system made for it in the app's
    /// Inbox (the queue has its own).
    public func importShared(_ urls: [URL]) async {
        await importFiles(urls)
        for file in urls where file.deletingLastPathComponent().lastPathComponent == "Inbox" {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Imports `urls`: audio files (and folders of them) and Day One exports (`.zip`). The files must stay readable
    /// until this returns (a picked file's security-scoped access is the caller's).
    public func importFiles(_ urls: [URL]) async {
        isWorking = true
        defer { isWorking = false }
        let importer = DiaryImport(library: core.library, store: core.store)
        let zone = timeZone
        let journals = urls.filter { $0.pathExtension.lowercased() == "zip" }
        let audio = urls.filter { $0.pathExtension.lowercased() != "zip" }
        let (found, skipped) = await Task.detached { DiaryImport.find(audio, in: zone) }.value
        rows += skipped.map { Row(id: $0.url.path, name: $0.url.lastPathComponent, state: .failed($0.reason)) }
        rows += found.map { Row(id: $0.url.path, name: $0.url.lastPathComponent, state: .reading) }
        for file in found {
            let state: Row.State
            do {
                let outcome = try await Task.detached {
                    try importer.queue(file, sha256: try DiaryImport.sha256(of: file.url), timeZone: zone, language: nil)
                }.value
                state = Self.state(of: outcome, at: file.recordedAt.date)
            } catch {
                state = .failed("\(error)")
            }
            update(file.url.path, to: state)
        }
        for journal in journals { await importJournal(journal, with: importer) }
        await core.uploads.wake()
    }

    private func importJournal(_ zip: URL, with importer: DiaryImport) async {
        do {
            let entries = try await Task.detached { try Self.queueJournal(zip, with: importer) }.value
            rows += entries
        } catch {
            rows.append(Row(id: zip.path, name: zip.lastPathComponent, state: .failed("\(error)")))
        }
    }

    /// Reads and queues a whole Day One export: a row for its words and for each recording of every entry.
    private nonisolated static func queueJournal(_ zip: URL, with importer: DiaryImport) throws -> [Row] {
        let journal = try DayOneJournal(zip: zip)
        var rows = journal.problems.enumerated().map {
            Row(id: "\(zip.path)#\($0.offset)", name: zip.lastPathComponent, state: .failed($0.element))
        }
        for entry in journal.entries {
            let name = "\(zip.lastPathComponent): \(entry.text.split(separator: "\n").first.map(String.init) ?? "a recording")"
            do {
                let outcome = try importer.queue(entry, from: journal, language: nil)
                let all = (outcome.words.map { [$0] } ?? []) + outcome.recordings
                rows += all.enumerated().map { index, outcome in
                    Row(id: "\(zip.path)#\(entry.uuid)#\(index)", name: name, state: state(of: outcome, at: entry.createdAt))
                }
            } catch {
                rows.append(Row(id: "\(zip.path)#\(entry.uuid)", name: name, state: .failed("\(error)")))
            }
        }
        return rows
    }

    private nonisolated static func state(of outcome: DiaryImport.Outcome, at date: Date) -> Row.State {
        switch outcome {
        case .queued: .queued(date)
        case .alreadyQueued: .alreadyWaiting
        case .alreadyInTheDiary: .alreadyInTheDiary
        }
    }

    private func update(_ id: String, to state: Row.State) {
        guard let index = rows.firstIndex(where: { $0.id == id }) else { return }
        rows[index].state = state
    }

    /// "3 imported, 1 already in your diary, 1 not imported."
    public var summary: String {
        let queued = rows.filter { if case .queued = $0.state { true } else { false } }.count
        let known = rows.filter { $0.state == .alreadyInTheDiary || $0.state == .alreadyWaiting }.count
        let failed = rows.filter { if case .failed = $0.state { true } else { false } }.count
        return "\(queued) imported, \(known) already in your diary, \(failed) not imported."
    }

    /// What a row says of its file, in words.
    public func stateText(_ row: Row) -> String {
        switch row.state {
        case .reading: "Reading…"
        case .queued(let date):
            "Added as of \(date.formatted(Date.FormatStyle(date: .long, time: .shortened, timeZone: timeZone)))"
        case .alreadyWaiting: "Already waiting to be sent"
        case .alreadyInTheDiary: "Already in your diary"
        case .failed(let reason): "Not imported: \(reason)"
        }
    }
}
