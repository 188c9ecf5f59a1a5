import Foundation
import MyDayModels
import MyDayTestSupport
import Synchronization
import Testing
import Yams

@testable import MyDayKit

@Suite struct MarkdownFolderTests {
    let folder = TestFolder.make("markdown-folder")

    private func entry(_ text: String, at iso: String, kind: EntryKind = .text, title: String? = nil) -> LocalEntry {
        let id = UUID()
        var entry = LocalEntry(
            id: id, createdAt: try! Date(iso, strategy: .iso8601), timeZone: "Europe/Paris", duration: kind == .audio ? 61 : 0,
            kind: kind, state: .transcribed, filename: "unused", contentType: kind == .audio ? "audio/mp4" : nil,
            transcriptClean: text)
        entry.title = title
        entry.tags = ["home"]
        entry.mood = 4
        return entry
    }

    /// A recording fetcher that writes the entry's id as the bytes, and counts its calls.
    private final class Recordings: Sendable {
        let calls = Mutex(0)
        let failing = Mutex(false)

        func fetch(_ entry: LocalEntry, _ file: URL) async throws {
            calls.withLock { $0 += 1 }
            if failing.withLock({ $0 }) { throw SignedDownloadError(status: 409) }
            try Data(entry.id.uuidString.utf8).write(to: file)
        }
    }

    private func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    private func read(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func entriesAreWrittenAsTheExportWritesThemAndASecondPassChangesNothing() async throws {
        // Given a typed entry and a recording, and a note of the person's own in the folder
        let written = entry("A quiet evening.", at: "2026-03-28T21:00:00Z")
        let recorded = entry("Walked by the river.", at: "2026-03-29T08:15:00Z", kind: .audio, title: "Walk: by the river")
        try Data("my own notes".utf8).write(to: folder.appendingPathComponent("notes.md"))
        let recordings = Recordings()

        // When the folder is brought in step
        let first = try await MarkdownFolder(folder: folder).update(with: [recorded, written], recording: recordings.fetch)

        // Then each entry has its markdown and the recording its file, named by the local time and title
        #expect(
            try names() == [
                "2026-03-28_22-00-00.md", "2026-03-29_10-15-00 Walk by the river.m4a", "2026-03-29_10-15-00 Walk by the river.md",
                "notes.md",
            ])
        #expect((first.written, first.recordingsAdded, first.unchanged) == (2, 1, 0))
        let markdown = try read("2026-03-29_10-15-00 Walk by the river.md")
        #expect(markdown.hasSuffix("---\n\nWalked by the river.\n"))
        let front = try #require(try Yams.load(yaml: String(markdown.split(separator: "---")[0])) as? [String: Any])
        #expect(front["id"] as? String == recorded.id.uuidString.lowercased())
        #expect(front["title"] as? String == "Walk: by the river" && front["tags"] as? [String] == ["home"])
        #expect(front["mood"] as? Int == 4 && front["duration_s"] as? Double == 61)
        #expect(
            front["time_zone"] as? String == "Europe/Paris"
                && front["audio"] as? String == "2026-03-29_10-15-00 Walk by the river.m4a")
        #expect(markdown.contains("date: 2026-03-29T10:15:00+02:00"))
        #expect(try read("notes.md") == "my own notes")

        // When it runs again with nothing changed, then nothing is written or fetched
        let second = try await MarkdownFolder(folder: folder).update(with: [recorded, written], recording: recordings.fetch)
        #expect((second.written, second.recordingsAdded, second.removed, second.unchanged) == (0, 0, 0, 2))
        #expect(recordings.calls.withLock { $0 } == 1)
    }

    @Test func aRenamedEntryMovesADeletedOneGoesAndThePersonsEditsAndFilesStay() async throws {
        // Given a folder with a recording and two typed entries
        var recorded = entry("Walked by the river.", at: "2026-03-29T08:15:00Z", kind: .audio)
        let kept = entry("Kept as it is.", at: "2026-03-27T09:00:00Z")
        let gone = entry("To be deleted.", at: "2026-03-28T09:00:00Z")
        let recordings = Recordings()
        _ = try await MarkdownFolder(folder: folder).update(with: [recorded, kept, gone], recording: recordings.fetch)
        // (and the person edits the file of the entry that will not change)
        try Data("my edit".utf8).write(to: folder.appendingPathComponent("2026-03-27_10-00-00.md"))

        // When the recording gets a title and the second typed entry is deleted
        recorded.title = "River"
        let summary = try await MarkdownFolder(folder: folder).update(with: [recorded, kept], recording: recordings.fetch)

        // Then the recording's files carry the title (the recording moved, not fetched again), the deleted entry's file
        // is gone, and the person's edit stays
        #expect(try names() == ["2026-03-27_10-00-00.md", "2026-03-29_10-15-00 River.m4a", "2026-03-29_10-15-00 River.md"])
        #expect((summary.written, summary.removed, summary.unchanged, summary.recordingsAdded) == (1, 1, 1, 0))
        #expect(recordings.calls.withLock { $0 } == 1)
        #expect(try read("2026-03-29_10-15-00 River.m4a") == recorded.id.uuidString)
        #expect(try read("2026-03-27_10-00-00.md") == "my edit")
    }

    @Test func theEntryThatTakesADeletedOnesNameKeepsItsOwnRecording() async throws {
        // Given two recordings of the same second: the first named by the second alone, the other with its id
        let pair = [
            entry("First.", at: "2026-03-29T08:15:00Z", kind: .audio), entry("Second.", at: "2026-03-29T08:15:00Z", kind: .audio),
        ]
        .sorted { $0.id.uuidString < $1.id.uuidString }
        let recordings = Recordings()
        _ = try await MarkdownFolder(folder: folder).update(with: pair, recording: recordings.fetch)
        #expect(try names().count == 4)

        // When the first is deleted
        let summary = try await MarkdownFolder(folder: folder).update(with: [pair[1]], recording: recordings.fetch)

        // Then the other takes the plain name with its own recording (moved, not fetched again), and nothing else is left
        #expect(try names() == ["2026-03-29_10-15-00.m4a", "2026-03-29_10-15-00.md"])
        #expect(try read("2026-03-29_10-15-00.m4a") == pair[1].id.uuidString)
        #expect(try read("2026-03-29_10-15-00.md").hasSuffix("\n\n\(pair[1].transcriptClean ?? "?")\n"))
        #expect(summary.removed == 1 && recordings.calls.withLock { $0 } == 2)
    }

    @Test func aRecordingThatCannotBeFetchedYetComesWithALaterPass() async throws {
        // Given a recording whose audio the server does not have yet
        let recorded = entry("", at: "2026-03-29T08:15:00Z", kind: .audio)
        let recordings = Recordings()
        recordings.failing.withLock { $0 = true }

        // When the folder is brought in step, then its markdown names no recording and the pass says why
        let early = try await MarkdownFolder(folder: folder).update(with: [recorded], recording: recordings.fetch)
        #expect(early.recordingsMissing.map(\.id) == [recorded.id])
        #expect(try names() == ["2026-03-29_10-15-00.md"] && !(try read("2026-03-29_10-15-00.md")).contains("audio:"))

        // When it can be fetched, then the next pass adds it and names it in the markdown
        recordings.failing.withLock { $0 = false }
        let later = try await MarkdownFolder(folder: folder).update(with: [recorded], recording: recordings.fetch)
        #expect((later.recordingsAdded, later.written) == (1, 1))
        #expect(try read("2026-03-29_10-15-00.md").contains("audio: \"2026-03-29_10-15-00.m4a\""))
    }
}
