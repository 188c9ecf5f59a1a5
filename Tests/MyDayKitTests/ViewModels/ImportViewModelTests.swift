import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

@MainActor
@Suite struct ImportViewModelTests {
    let harness = CoreHarness()

    @Test func pickedFilesAndAJournalAreQueuedAtTheirOwnTimesEachOnce() async throws {
        // Given a recording whose container says when it was made, the same bytes under another name, a text file and a
        // Day One export with one entry
        let folder = TestFolder.make("import-picked")
        let memo = folder.appendingPathComponent("Memo.m4a")
        try await TestMedia.ffmpeg(
            ["-f", "lavfi", "-i", "sine=duration=1", "-metadata", "creation_time=2026-03-12T10:30:00Z", memo.path])
        let copy = folder.appendingPathComponent("Memo_2.m4a")
        try FileManager.default.copyItem(at: memo, to: copy)
        let text = folder.appendingPathComponent("list.txt")
        try Data("a list".utf8).write(to: text)
        let journal = try await DayOneExport.zip([
            DayOneExport.Entry(uuid: "D1", creationDate: "2019-05-04T21:10:00Z", timeZone: "Europe/Dublin", text: "Howth.")
        ])
        let model = ImportViewModel(core: harness.core(), timeZone: TimeZone(identifier: "Pacific/Auckland")!)

        // When they are imported
        await model.importFiles([memo, copy, text, journal])

        // Then the recording is queued at its container's moment, its copy is known, the text file is refused, and the
        // journal's entry is queued at its date
        let states = Dictionary(uniqueKeysWithValues: model.rows.map { ($0.name, $0.state) })
        #expect(states["Memo.m4a"] == .queued(try Date("2026-03-12T10:30:00Z", strategy: .iso8601)))
        #expect(states["Memo_2.m4a"] == .alreadyWaiting)
        #expect(model.rows.filter(\.isFailure).map(\.name) == ["list.txt"])
        #expect(states["\(journal.lastPathComponent): Howth."] == .queued(try Date("2019-05-04T21:10:00Z", strategy: .iso8601)))
        #expect(model.summary == "2 imported, 1 already in your diary, 1 not imported.")
        #expect(model.stateText(try #require(model.rows.first { $0.name == "Memo_2.m4a" })) == "Already waiting to be sent")
        let queued = try harness.store.pendingUploads()
        #expect(queued.count == 2)
        #expect(Set(queued.map { $0.entry.kind }) == [.audio, .text])
        #expect(queued.allSatisfy { $0.upload.sourceSHA256 != nil })
        #expect(!model.isWorking)
    }

    @Test func filesSharedFromAnotherAppLeaveNoCopyInTheInbox() async throws {
        // Given a recording another app shared, copied by the system into the app's Inbox
        let inbox = TestFolder.make("import-shared").appendingPathComponent("Inbox", isDirectory: true)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let shared = inbox.appendingPathComponent("Voice memo.m4a")
        try await TestMedia.ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", shared.path])
        let model = ImportViewModel(core: harness.core())
        // When it is imported, then it is queued and the Inbox's copy is gone
        await model.importShared([shared])
        #expect(model.rows.map(\.state).allSatisfy { if case .queued = $0 { true } else { false } })
        #expect(try harness.store.pendingUploads().count == 1)
        #expect(!FileManager.default.fileExists(atPath: shared.path))
    }
}
