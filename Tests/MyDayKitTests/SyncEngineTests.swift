import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

@Suite struct SyncEngineTests {
    let store = try! LocalStore.inMemory()
    let library = try! RecordingLibrary(root: Given.folder())

    @Test func pullsPagesUntilTheServerHasNoMoreAndKeepsTheCursor() async throws {
        // Given a server with three pages of changes
        let ids = (0..<5).map { _ in UUID() }
        let cursors = CursorLog()
        var client = FakeMyDayClient()
        client.onChanges = { cursor, _ in
            cursors.append(cursor)
            switch cursor {
            case nil:
                return EntryChanges(
                    entries: ids[0..<2].map { Given.serverEntry($0) }, deletedIDs: [], nextCursor: "2", hasMore: true)
            case "2":
                return EntryChanges(
                    entries: ids[2..<4].map { Given.serverEntry($0) }, deletedIDs: [], nextCursor: "4", hasMore: true)
            default: return EntryChanges(entries: [Given.serverEntry(ids[4])], deletedIDs: [], nextCursor: "5", hasMore: false)
            }
        }
        // When it syncs from empty
        let summary = try await SyncEngine(store: store, client: client, library: library).sync()
        // Then every entry is here, in three requests, and the last cursor is kept for next time
        #expect(summary.pages == 3)
        #expect(Set(try store.entries().map(\.id)) == Set(ids))
        #expect(cursors.values == [nil, "2", "4"])
        #expect(try store.syncCursor() == "5")
    }

    @Test func deletionsMadeHereReachTheServerFirst() async throws {
        // Given a synced entry deleted here while offline
        let id = UUID()
        try store.applyServerChanges(
            EntryChanges(entries: [Given.serverEntry(id)], deletedIDs: [], nextCursor: "1", hasMore: false))
        try store.deleteEntry(id)
        let deleted = CallCounter()
        var client = FakeMyDayClient()
        client.onDeleteEntry = {
            #expect($0 == id)
            deleted.increment()
        }
        client.onChanges = { cursor, _ in
            #expect(cursor == "1")
            return EntryChanges(entries: [], deletedIDs: [id], nextCursor: "2", hasMore: false)
        }
        // When it syncs, then the server is told once and the entry is gone here
        try await SyncEngine(store: store, client: client, library: library).sync()
        #expect(deleted.count == 1)
        #expect(try store.entry(id) == nil)
    }

    @Test func aServerTombstoneNeverRemovesAudioThatHasNotReachedTheServer() async throws {
        // Given a recording queued here, whose entry the server created and then removed (its upload never came)
        let id = UUID()
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try store.recordFinished(try library.finishRecording(id: id), now: Given.now)
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in EntryChanges(entries: [], deletedIDs: [id], nextCursor: "2", hasMore: false) }
        // When the tombstone comes in a sync
        try await SyncEngine(store: store, client: client, library: library).sync()
        // Then the recording and its place in the queue stay, for the next attempt to send it again
        let entry = try #require(try store.entry(id))
        #expect(entry.state.isOnItsWayUp)
        #expect(try store.pendingUploads().map(\.entry.id) == [id])
        #expect(FileManager.default.fileExists(atPath: library.url(of: try #require(entry.audioPath)).path))
    }

    @Test func editsNewerThanTheServerArePushedAndThenSettled() async throws {
        // Given an entry edited here after the server last changed it
        let id = UUID()
        try store.applyServerChanges(
            EntryChanges(entries: [Given.serverEntry(id)], deletedIDs: [], nextCursor: "1", hasMore: false))
        try store.editEntry(id, EntryEdit(title: "Evening"), at: Given.now.addingTimeInterval(30))
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in EntryChanges(entries: [], deletedIDs: [], nextCursor: "1", hasMore: false) }
        client.onEdit = { editedID, edit in
            #expect(edit == EntryEdit(title: "Evening"))
            return Given.serverEntry(editedID, updatedAt: Given.now.addingTimeInterval(31), title: edit.title)
        }
        // When it syncs, then the edit is pushed once and nothing is pending
        let summary = try await SyncEngine(store: store, client: client, library: library).sync()
        #expect(summary.editsPushed == 1)
        #expect(try store.entry(id)?.title == "Evening")
        #expect(try store.pendingEdits().isEmpty)
    }

    @Test func aServerDeletionRemovesTheLocalAudioFile() async throws {
        // Given an uploaded recording with its file in the library
        let id = UUID()
        let temporary = try library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 0.5).write(to: temporary)
        let recording = try library.finishRecording(id: id)
        try store.recordFinished(recording)
        try store.markUploaded(Given.serverEntry(id))
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in EntryChanges(entries: [], deletedIDs: [id], nextCursor: "3", hasMore: false) }
        // When another device deleted it, then the file goes too
        try await SyncEngine(store: store, client: client, library: library).sync()
        #expect(!FileManager.default.fileExists(atPath: library.url(of: recording.audioPath).path))
    }
}

/// The cursors a fake server was asked for, in order.
final class CursorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [String?] = []
    var values: [String?] { lock.withLock { log } }
    func append(_ cursor: String?) { lock.withLock { log.append(cursor) } }
}
