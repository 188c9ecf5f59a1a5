import Foundation
import MyDayModels
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDayKit

@MainActor
@Suite struct EntryDetailViewModelTests {
    let harness = CoreHarness()

    @Test func showsTheCleanTranscriptAndTheOriginalOnDemand() throws {
        let id = UUID()
        try harness.synced([Given.serverEntry(id, transcript: "A walk by the river.")])
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core())
        #expect(detail.transcript == .text("A walk by the river."))
        #expect(detail.hasOriginal)
        detail.showsOriginal = true
        #expect(detail.transcript == .text("a walk by the river."))
        #expect(detail.canRetranscribe && !detail.canRetry)
        #expect(!detail.retranscribingReplacesEdits)
    }

    @Test func theHeaderSaysTheDayAndTimeInTheEntrysOwnZone() throws {
        // Given an untitled 65-second recording made at 21:05 in Paris on 2 March 2026 (20:05 UTC), and a titled one
        let (untitled, titled) = (UUID(), UUID())
        var first = Given.serverEntry(untitled)
        first.createdAt = Date(timeIntervalSince1970: 1_772_481_900)
        first.duration = 65
        var second = first
        second.id = titled
        second.title = "The harbour"
        try harness.synced([first, second])
        let british = Locale(identifier: "en_GB")
        // Then the untitled one's header is its day, and under it the time in Paris and the length
        let plain = EntryDetailViewModel(entry: try #require(try harness.store.entry(untitled)), core: harness.core())
        #expect(plain.headerTitle(locale: british) == "Monday, 2 March 2026", "\(plain.headerTitle(locale: british))")
        #expect(plain.headerMeta(locale: british) == "21:05 · 1:05")
        // And the titled one's header is its title, with the day beside the time
        let named = EntryDetailViewModel(entry: try #require(try harness.store.entry(titled)), core: harness.core())
        #expect(named.headerTitle(locale: british) == "The harbour")
        #expect(named.headerMeta(locale: british) == "Monday, 2 March 2026, 21:05 · 1:05")
    }

    @Test func transcribingAgainReplacesWordsEditedElsewhereOrHere() throws {
        // Given a recording whose words were edited on another device, and one with the automatic words
        let (edited, automatic) = (UUID(), UUID())
        var elsewhere = Given.serverEntry(edited, transcript: "A walk by the Liffey.")
        elsewhere.wordsEdited = true
        try harness.synced([elsewhere, Given.serverEntry(automatic, transcript: "A walk by the river.")])
        // Then Transcribe again would replace the first one's words, not the second's until they are edited here
        let first = EntryDetailViewModel(entry: try #require(try harness.store.entry(edited)), core: harness.core())
        #expect(first.retranscribingReplacesEdits)
        let second = EntryDetailViewModel(entry: try #require(try harness.store.entry(automatic)), core: harness.core())
        #expect(!second.retranscribingReplacesEdits)
        try harness.store.editEntry(automatic, EntryEdit(text: "A walk by the Dodder."))
        let editedHere = EntryDetailViewModel(entry: try #require(try harness.store.entry(automatic)), core: harness.core())
        #expect(editedHere.retranscribingReplacesEdits)
    }

    @Test func theWordsToFollowAreThoseOfTheTextShown() async throws {
        // Given a transcribed recording whose words the server times
        let id = UUID()
        try harness.synced([Given.serverEntry(id, transcript: "A walk by the river.")])
        let timed = ["A", "walk", "by", "the", "river."].enumerated().map { index, word in
            TimedWord(text: word, start: Double(index), end: Double(index) + 0.5, probability: index == 4 ? 0.2 : 0.9)
        }
        let answers = Mutex([timed, Array(timed.prefix(3))])
        var client = FakeMyDayClient()
        client.onWords = { asked in
            #expect(asked == id)
            return answers.withLock { $0.removeFirst() }
        }
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core(client))
        // When they are loaded, the follower marks the word at a moment and the unsure one
        await detail.loadWords()
        let follower = try #require(detail.follower)
        #expect(follower.currentWord(at: 3.2) == 3 && follower.isUnsure(4))
        // And words that are not those of the text shown are not followed
        await detail.loadWords()
        #expect(detail.follower == nil)
        #expect(detail.reviewReason == nil)
    }

    @Test func suggestionsAreAppliedOneAtATimeAndOnlyWhenAccepted() async throws {
        let id = UUID()
        try harness.synced([Given.serverEntry(id, transcript: "Planted tomatoes in the garden with Przemek.")])
        var client = FakeMyDayClient()
        client.onSuggestions = { _ in Suggestions(title: "Planted tomatoes in the garden", tags: ["garden"], mood: 4) }
        client.onChanges = { _, _ in EntryChanges(entries: [], deletedIDs: [], nextCursor: "c", hasMore: false) }
        client.onEdit = { _, edit in
            #expect(edit == EntryEdit(title: "Planted tomatoes in the garden"))
            var edited = Given.serverEntry(id, transcript: "Planted tomatoes in the garden with Przemek.")
            edited.title = edit.title
            edited.updatedAt = Date()
            return edited
        }
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core(client))
        await detail.loadSuggestions()
        // Offered, and nothing changed
        #expect(detail.suggestions == Suggestions(title: "Planted tomatoes in the garden", tags: ["garden"], mood: 4))
        #expect(detail.entry.title == nil && detail.entry.tags.isEmpty && detail.entry.mood == nil)
        // Accepting the title edits the title alone, and it is offered no more
        await detail.acceptSuggestedTitle()
        #expect(detail.entry.title == "Planted tomatoes in the garden" && detail.entry.tags.isEmpty)
        #expect(detail.suggestions == Suggestions(title: nil, tags: ["garden"], mood: 4))
    }

    @Test func eachStateHasItsOwnTranscriptArea() throws {
        let ids = (0..<3).map { _ in UUID() }
        var silent = Given.serverEntry(ids[2], transcript: "")
        silent.noSpeech = true
        var failed = Given.serverEntry(ids[1], status: .failed, transcript: nil)
        failed.failureReason = "The recognizer gave up."
        try harness.synced([Given.serverEntry(ids[0], status: .transcribing, transcript: nil), failed, silent])
        let core = harness.core()
        let states = try ids.map { EntryDetailViewModel(entry: try #require(try harness.store.entry($0)), core: core).transcript }
        #expect(states == [.waiting("Transcribing…"), .failed("The recognizer gave up."), .noSpeech])
    }

    @Test func playsTheLocalFileWhenItIsHereAndASignedLinkOtherwise() async throws {
        // Given one entry recorded here and one only on the server
        let local = UUID()
        let temporary = try harness.library.beginRecording(
            id: local, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try harness.store.recordFinished(try harness.library.finishRecording(id: local))
        let remote = UUID()
        try harness.synced([Given.serverEntry(remote)])
        let link = URL(string: "http://127.0.0.1:1/v1/blobs/audio/x?sig=1")!
        var client = FakeMyDayClient()
        client.onAudioLink = {
            #expect($0 == remote)
            return SignedLink(url: link, expiresAt: Given.now)
        }
        let core = harness.core(client)
        // Then each plays from where its audio is
        let here = await EntryDetailViewModel(entry: try #require(try harness.store.entry(local)), core: core).playbackURL()
        #expect(here?.isFileURL == true)
        let there = await EntryDetailViewModel(entry: try #require(try harness.store.entry(remote)), core: core).playbackURL()
        #expect(there == link)
    }

    @Test func editsShowAtOnceAndWaitForTheServerWhenItIsAway() async throws {
        let id = UUID()
        try harness.synced([Given.serverEntry(id)])
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in throw URLError(.notConnectedToInternet) }
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core(client))
        await detail.save(EntryEdit(title: "By the river", tags: ["walk"], mood: 5))
        #expect(detail.entry.title == "By the river")
        #expect(detail.entry.tags == ["walk"])
        #expect(detail.savedMessage?.contains("next sync") == true)
        #expect(try harness.store.pendingEdits().map(\.id) == [id])
    }

    @Test func aTitleTooLongIsRefusedWithTheReasonAndNothingChanges() async throws {
        // Given a synced entry and a server the test does not expect to be asked
        let id = UUID()
        try harness.synced([Given.serverEntry(id)])
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core())

        // When a title of 201 characters is saved
        await detail.save(EntryEdit(title: String(repeating: "a", count: 201)))

        // Then it says why, the entry keeps its title, and no edit waits to be sent
        #expect(detail.errorMessage == "A title can have at most 200 characters; this one has 201.")
        #expect(detail.savedMessage == nil)
        #expect(detail.entry.title == nil)
        #expect(try harness.store.pendingEdits().isEmpty)
        #expect(EntryDetailViewModel.titleProblem(String(repeating: "a", count: 200)) == nil)
    }

    @Test func retryingARefusedUploadSendsItAgain() async throws {
        let note = try harness.store.noteWritten("Again.", at: Given.now, timeZone: Given.paris)
        try harness.store.markUploadGaveUp(note.id, reason: "Busy.")
        var client = FakeMyDayClient()
        client.onCreateEntry = { entry in
            var server = Given.serverEntry(entry.id, transcript: "Again.")
            server.kind = .text
            return CreatedEntry(entry: server, upload: nil)
        }
        let core = ClientCore(
            store: harness.store, library: harness.library, client: client, uploader: FakeBlobUploader(answers: []))
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(note.id)), core: core)
        #expect(detail.canRetry)
        await detail.retry()
        #expect(detail.entry.state == .transcribed)
    }

    @Test func oneRequestAtATimeAndTheScreenKnowsWhenOneRunsButAnEditIsAlwaysKept() async throws {
        // Given a transcribed recording, and a server that holds "Transcribe again" until the test lets it go
        let id = UUID()
        try harness.synced([Given.serverEntry(id, transcript: "A walk by the river.")])
        let held = Gate()
        var client = FakeMyDayClient()
        client.onRetranscribe = { id in
            await held.wait()
            return Given.serverEntry(id, status: .transcribing, transcript: nil)
        }
        client.onChanges = { _, _ in EntryChanges(entries: [], deletedIDs: [], nextCursor: "0", hasMore: false) }
        client.onDeleteEntry = { _ in }
        client.onEdit = { id, edit in
            var edited = Given.serverEntry(id)
            edited.title = edit.title
            edited.updatedAt = Date()
            return edited
        }
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core(client))
        // When it is transcribed again, then the screen is working until the server answered
        let first = Task { await detail.retranscribe() }
        try await pollUntil("the server is asked") { held.waiterCount == 1 }
        #expect(detail.isWorking)
        // And a delete tapped meanwhile does nothing, while an edit saved meanwhile is kept
        await detail.delete()
        #expect(!detail.isDeleted)
        #expect(try harness.store.entry(id) != nil)
        await detail.save(EntryEdit(title: "By the river"))
        #expect(try harness.store.entry(id)?.title == "By the river")
        #expect(detail.isWorking)
        held.open()
        await first.value
        #expect(!detail.isWorking)
        // Then, the first action done, a delete goes ahead
        await detail.delete()
        #expect(detail.isDeleted && !detail.isWorking)
    }

    @Test func deletingAnUnsentEntryRemovesItAndItsAudioAtOnce() async throws {
        let id = UUID()
        let temporary = try harness.library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        let recording = try harness.library.finishRecording(id: id)
        try harness.store.recordFinished(recording)
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in EntryChanges(entries: [], deletedIDs: [], nextCursor: "0", hasMore: false) }
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core(client))
        await detail.delete()
        #expect(detail.isDeleted)
        #expect(try harness.store.entry(id) == nil)
        #expect(!FileManager.default.fileExists(atPath: harness.library.url(of: recording.audioPath).path))
    }

    @Test func anOpenEntryFollowsItsTranscriptArrivingAndClosesWhenDeletedElsewhere() async throws {
        // Given an open entry still being transcribed
        let id = UUID()
        try harness.synced([Given.serverEntry(id, status: .transcribing, transcript: nil)])
        let detail = EntryDetailViewModel(entry: try #require(try harness.store.entry(id)), core: harness.core())
        let following = Task { await detail.observe() }
        defer { following.cancel() }
        #expect(detail.transcript == .waiting("Transcribing…"))

        // When the transcript arrives by sync, then the open screen shows it
        try harness.synced([Given.serverEntry(id, transcript: "Rain all day.")])
        try await pollUntil("the transcript shows") { detail.transcript == .text("Rain all day.") }

        // When another device deletes it, then the screen closes
        try harness.store.applyServerChanges(EntryChanges(entries: [], deletedIDs: [id], nextCursor: "2", hasMore: false))
        try await pollUntil("the screen closes") { detail.isDeleted }
    }
}
