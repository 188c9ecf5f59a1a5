import Foundation
import MyDayModels
import Testing

@testable import MyDayKit

@Suite struct LocalStoreTests {
    let store = try! LocalStore.inMemory()
    let id = UUID()

    private func recordOne() throws {
        try store.recordFinished(
            FinishedRecording(
                id: id, startedAt: Given.now, timeZone: "Europe/Paris", duration: 12, audioPath: "recordings/a.m4a",
                container: .mp4, sizeBytes: 4),
            now: Given.now)
    }

    private func page(_ entries: [ServerEntry], deleted: [UUID] = [], cursor: String = "7") -> EntryChanges {
        EntryChanges(entries: entries, deletedIDs: deleted, nextCursor: cursor, hasMore: false)
    }

    @Test func aFinishedRecordingIsAnEntryAndAQueuedUploadAtOnce() throws {
        // When a recording finishes
        try recordOne()
        // Then the library shows it queued and the queue holds it, due now
        let entry = try #require(try store.entry(id))
        #expect(entry.state == .queued)
        #expect(entry.filename.hasSuffix("_\(RecordingFilename.uuid8(id)).m4a"))
        #expect(try store.pendingUploads().map(\.upload.entryID) == [id])
        #expect(try store.pendingUploads().first?.upload.nextAttemptAt == Given.now)
    }

    @Test func serverStatusAndTranscriptsWin() throws {
        // Given an uploaded entry the device thinks is transcribing
        try recordOne()
        try store.markUploaded(Given.serverEntry(id, status: .transcribing, transcript: nil))
        // When the server's transcribed row arrives
        try store.applyServerChanges(page([Given.serverEntry(id, status: .transcribed, transcript: "A walk.")]))
        // Then the device shows it, keeps its audio, and remembers the cursor
        let entry = try #require(try store.entry(id))
        #expect(entry.state == .transcribed)
        #expect(entry.transcriptClean == "A walk.")
        #expect(entry.audioPath == "recordings/a.m4a")
        #expect(try store.syncCursor() == "7")
        #expect(try store.pendingUploads().isEmpty)
    }

    @Test func aLocalEditNewerThanTheServerWinsAndStaysPending() throws {
        // Given an entry the server last changed at T, edited here at T+60
        try store.applyServerChanges(page([Given.serverEntry(id, updatedAt: Given.now, title: "Server title")]))
        try store.editEntry(id, EntryEdit(title: "My title", mood: 4), at: Given.now.addingTimeInterval(60))
        // When the same server row comes again (another field changed, still at T+30)
        try store.applyServerChanges(
            page([
                Given.serverEntry(
                    id, updatedAt: Given.now.addingTimeInterval(30), transcript: "New words.", title: "Server title")
            ]))
        // Then the local title and mood stay, the transcript is the server's, and the edit is still to be pushed
        let entry = try #require(try store.entry(id))
        #expect(entry.title == "My title")
        #expect(entry.mood == 4)
        #expect(entry.transcriptClean == "New words.")
        #expect(try store.pendingEdits().map(\.id) == [id])
    }

    @Test func anEditMadeWhileThePreviousOneIsSentStaysWhateverTheServersClock() throws {
        // Given a title edited at T+10 and sent at T+11, then edited again at T+12 before the server answered
        try store.applyServerChanges(page([Given.serverEntry(id, updatedAt: Given.now, title: "Walk")]))
        try store.editEntry(id, EntryEdit(title: "A"), at: Given.now.addingTimeInterval(10))
        try store.editEntry(id, EntryEdit(title: "B"), at: Given.now.addingTimeInterval(12))
        // When the server answers the first edit with its row as changed at T+13 (its clock, or its turn)
        try store.markEditPushed(
            Given.serverEntry(id, updatedAt: Given.now.addingTimeInterval(13), title: "A"),
            sentAt: Given.now.addingTimeInterval(11))
        // Then the second edit shows and is still to be sent
        #expect(try store.entry(id)?.title == "B")
        #expect(try store.pendingEdits().map(\.pendingEdit?.title) == ["B"])
    }

    @Test func aLocalEditOlderThanTheServerLoses() throws {
        // Given a local edit at T+10 and a server change at T+20
        try store.applyServerChanges(page([Given.serverEntry(id, updatedAt: Given.now)]))
        try store.editEntry(id, EntryEdit(title: "Mine"), at: Given.now.addingTimeInterval(10))
        try store.applyServerChanges(page([Given.serverEntry(id, updatedAt: Given.now.addingTimeInterval(20), title: "Theirs")]))
        // Then the server's title shows and nothing is left to push
        #expect(try store.entry(id)?.title == "Theirs")
        #expect(try store.pendingEdits().isEmpty)
    }

    @Test func anEditMadeBeforeTheUploadSurvivesTheServersFirstAnswer() throws {
        // Given an entry edited while it was still queued
        try recordOne()
        try store.editEntry(id, EntryEdit(title: "Offline title"), at: Given.now)
        // When the upload completes with a server row changed after the edit
        try store.markUploaded(Given.serverEntry(id, status: .uploaded, updatedAt: Given.now.addingTimeInterval(5)))
        // Then the edit stays and is still to be pushed
        #expect(try store.entry(id)?.title == "Offline title")
        #expect(try store.pendingEdits().map(\.id) == [id])
    }

    @Test func anEntryStillUploadingIsNotClobberedByAServerRowWithoutAudio() throws {
        // Given an entry being uploaded whose create reached the server, but not its audio
        try recordOne()
        _ = try store.claimForUpload(id)
        // When the server's pending_upload row arrives in a sync
        try store.applyServerChanges(page([Given.serverEntry(id, status: .pendingUpload, transcript: nil)]))
        // Then the entry is still uploading, with its audio and its place in the queue
        let entry = try #require(try store.entry(id))
        #expect(entry.state == .uploading)
        #expect(entry.audioPath == "recordings/a.m4a")
        #expect(try store.pendingUploads().count == 1)
    }

    @Test func aServerRowWithAudioEndsTheLocalUpload() throws {
        // Given a queued entry whose upload finished before a crash (the server has the audio)
        try recordOne()
        try store.applyServerChanges(page([Given.serverEntry(id, status: .uploaded, transcript: nil)]))
        // Then the queue forgets it and the entry follows the server
        #expect(try store.entry(id)?.state == .uploaded)
        #expect(try store.pendingUploads().isEmpty)
    }

    @Test func tombstonesDeleteTheEntryAndAnswerItsAudio() throws {
        // Given an uploaded entry with local audio
        try recordOne()
        try store.markUploaded(Given.serverEntry(id, status: .transcribed))
        // When the server says it was deleted
        let orphaned = try store.applyServerChanges(page([], deleted: [id]))
        // Then it is gone here and its audio is handed back to be removed
        #expect(try store.entry(id) == nil)
        #expect(orphaned == ["recordings/a.m4a"])
    }

    @Test func deletingAnEntryTheServerNeverHadRemovesItAtOnce() throws {
        // Given a queued entry, when it is deleted here, then it and its upload go, and its audio is answered
        try recordOne()
        #expect(try store.deleteEntry(id) == "recordings/a.m4a")
        #expect(try store.entries().isEmpty)
        #expect(try store.pendingUploads().isEmpty)
    }

    @Test func deletingASyncedEntryHidesItUntilTheServerConfirms() throws {
        try store.applyServerChanges(page([Given.serverEntry(id)]))
        #expect(try store.deleteEntry(id) == nil)
        #expect(try store.entries().isEmpty)
        #expect(try store.pendingDeletes().map(\.id) == [id])
        // A server row arriving meanwhile does not bring it back
        try store.applyServerChanges(page([Given.serverEntry(id, updatedAt: Given.now.addingTimeInterval(9))]))
        #expect(try store.entries().isEmpty)
    }

    @Test func aKilledUploadGoesBackToTheQueueAtLaunch() throws {
        try recordOne()
        _ = try store.claimForUpload(id)
        try store.requeueInterruptedUploads()
        #expect(try store.entry(id)?.state == .queued)
    }

    @Test func anEntryDeletedWhileUploadingStaysDeletedWhenTheUploadFinishes() throws {
        // Given an entry deleted here while its upload was under way
        try recordOne()
        _ = try store.claimForUpload(id)
        #expect(try store.deleteEntry(id) == nil)
        // When the upload completes
        try store.markUploaded(Given.serverEntry(id, status: .uploaded, transcript: nil))
        // Then it stays hidden and is still to be deleted on the server
        #expect(try store.entries().isEmpty)
        #expect(try store.pendingDeletes().map(\.id) == [id])
    }

    @Test func anEntryWhoseUploadWasTriedIsDeletedOnTheServerToo() throws {
        // Given an entry whose first attempt failed after it may have reached the server
        try recordOne()
        _ = try store.claimForUpload(id)
        try store.markUploadRetry(id, reason: "Timed out.", next: Given.now)
        // When it is deleted here, then it is hidden and left for the sync to delete on the server
        #expect(try store.deleteEntry(id) == nil)
        #expect(try store.pendingDeletes().map(\.id) == [id])
        // And the queue no longer takes it
        #expect(try store.claimForUpload(id) == nil)
    }

    @Test func anEntryCanBeClaimedForUploadOnce() throws {
        try recordOne()
        #expect(try store.claimForUpload(id)?.state == .uploading)
        #expect(try store.claimForUpload(id) == nil)
    }

    @Test func aTitleEditedDuringTranscriptionSurvivesIt() throws {
        // Given an entry being transcribed, whose title was edited here at T+10
        try store.applyServerChanges(page([Given.serverEntry(id, status: .transcribing, updatedAt: Given.now, transcript: nil)]))
        try store.editEntry(id, EntryEdit(title: "Morning walk"), at: Given.now.addingTimeInterval(10))
        // When the transcription finishes at T+20 (a newer row, but the title untouched)
        try store.applyServerChanges(
            page([Given.serverEntry(id, status: .transcribed, updatedAt: Given.now.addingTimeInterval(20), transcript: "Words.")])
        )
        // Then the title stays and is still to be sent, next to the new transcript
        let entry = try #require(try store.entry(id))
        #expect(entry.title == "Morning walk")
        #expect(entry.transcriptClean == "Words.")
        #expect(try store.pendingEdits().map(\.id) == [id])
    }

    @Test func aStoreBelongsToOneAccount() throws {
        // Given a store with a synced entry of account A
        let accountA = UUID()
        let accountB = UUID()
        try store.claim(for: accountA)
        try store.applyServerChanges(page([Given.serverEntry(id)]))
        // When A signs in again nothing changes; when B signs in, A's diary is forgotten
        try store.claim(for: accountA)
        #expect(try store.entries().count == 1)
        try store.claim(for: accountB)
        #expect(try store.entries().isEmpty)
        #expect(try store.syncCursor() == nil)
    }

    @Test func anotherAccountCannotTakeAStoreWithUnsentEntries() throws {
        try store.claim(for: UUID())
        try recordOne()
        #expect(throws: LocalStoreError.anotherAccountsEntriesUnsent) { try store.claim(for: UUID()) }
        #expect(try store.entries().count == 1)
        #expect(throws: LocalStoreError.unsent(1)) { try store.forgetEverythingIfAllSent() }
    }

    @Test func observersSeeEveryChange() async throws {
        // Given an observer of the visible entries
        var iterator = store.observeEntries().makeAsyncIterator()
        #expect(try await iterator.next()?.isEmpty == true)
        // When a note is written, then the observer sees it
        try store.noteWritten("Typed.", at: Given.now, timeZone: Given.paris)
        let seen = try await iterator.next()
        #expect(seen?.map(\.transcriptClean) == ["Typed."])
    }
}
