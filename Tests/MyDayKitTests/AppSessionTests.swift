import Foundation
import MyDayKit
import MyDayTestSupport
import Synchronization
import Testing

@MainActor
@Suite struct AppSessionTests {
    let harness = CoreHarness()
    let account = Account(id: UUID(), email: "a@example.com", name: nil, hasPassword: true, createdAt: Given.now)
    nonisolated static let noChanges = EntryChanges(entries: [], deletedIDs: [], nextCursor: "1", hasMore: false)

    /// A signed-in session on `client`, counting the times it ended.
    private func session(_ client: FakeMyDayClient, signedIn: Bool = true) -> (AppSession, CallCounter) {
        let session = AppSession(core: harness.core(client), signedIn: signedIn)
        let ended = CallCounter()
        session.sessionEnded = { ended.increment() }
        return (session, ended)
    }

    @Test func aRefreshAskedForWhileOneRunsJoinsIt() async throws {
        // Given a server whose changes are held until the test lets them through
        var client = FakeMyDayClient()
        let syncs = CallCounter()
        let held = Gate()
        client.onChanges = { _, _ in
            syncs.increment()
            await held.wait()
            return Self.noChanges
        }
        let (session, _) = session(client)
        // When a second refresh is asked for while the first waits on the server
        let first = Task { await session.refresh() }
        try await pollUntil("the first refresh waits on the server") { held.waiterCount == 1 }
        let second = Task { await session.refresh() }
        // (the main actor runs its work in order: the second refresh is waiting on the first once this returns)
        await Task.yield()
        held.open()
        // Then both answer the one sync's outcome
        let answers = (await first.value, await second.value)
        #expect(answers == (true, true))
        #expect(syncs.count == 1)
        // And a refresh asked for afterwards syncs again
        #expect(await session.refresh())
        #expect(syncs.count == 2)
    }

    @Test func aFailedSyncIsShownUntilOneWorks() async throws {
        // Given a server that cannot be reached once, then answers
        var client = FakeMyDayClient()
        let calls = CallCounter()
        client.onChanges = { _, _ in
            if calls.increment() == 1 { throw URLError(.cannotConnectToHost) }
            return Self.noChanges
        }
        let (session, ended) = session(client)
        // When the diary is refreshed twice
        #expect(await session.refresh() == false)
        // Then the first failure is said, and the session goes on
        #expect(session.attentionMessage == AppSession.unreachableServer)
        #expect(session.phase == .signedIn && ended.count == 0)
        #expect(await session.refresh())
        #expect(session.attentionMessage == nil)
    }

    @Test func theServerSayingTheSessionEndedSignsOut() async throws {
        // Given a server that ended the session
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in throw MyDayClientError.sessionEnded }
        let (session, ended) = session(client)
        // When the diary is refreshed
        #expect(await session.refresh() == false)
        // Then the sign-in screen shows, with no error over it
        #expect(session.phase == .signedOut)
        #expect(ended.count == 1)
        #expect(session.attentionMessage == nil)
        // And a refresh while signed out asks the server nothing
        #expect(await session.refresh())
    }

    @Test func aSessionEndedDuringARecordingEndsOnceTheRecordingIsSaved() {
        // Given a first recording saved while the session holds: nothing ends
        let (session, ended) = session(FakeMyDayClient())
        let recording = Mutex(false)
        session.isRecording = { recording.withLock { $0 } }
        session.recorderStateChanged()
        #expect(session.phase == .signedIn)
        // And a second recording under way
        recording.withLock { $0 = true }
        // When the server ends the session
        session.sessionDidEnd()
        // Then the recording goes on, signed in
        #expect(session.phase == .signedIn && ended.count == 0)
        session.recorderStateChanged()
        #expect(session.phase == .signedIn)
        // And once it is saved, the session ends, once
        recording.withLock { $0 = false }
        session.recorderStateChanged()
        session.recorderStateChanged()
        #expect(session.phase == .signedOut)
        #expect(ended.count == 1)
    }

    @Test func aPausedUploadEndsTheSessionOnlyWhenNoSessionIsStored() {
        let (session, ended) = session(FakeMyDayClient())
        // A Keychain that cannot be read (locked) says nothing; one that holds the session neither
        session.uploadsPaused(sessionStored: nil)
        session.uploadsPaused(sessionStored: true)
        #expect(session.phase == .signedIn && ended.count == 0)
        // One that holds no session: the server ended it
        session.uploadsPaused(sessionStored: false)
        #expect(session.phase == .signedOut && ended.count == 1)
    }

    @Test func anotherServerIsTakenOnlyWhileSignedOut() {
        let (session, _) = session(FakeMyDayClient())
        let first = session.core
        #expect(session.use(harness.core()) == false)
        #expect(session.core === first)
        session.didSignOut()
        let other = harness.core()
        #expect(session.use(other))
        #expect(session.core === other)
    }

    @Test func signingInRefreshesAndFollowsTheChangesUntilSignOut() async throws {
        // Given a signed-out device and a server whose change feed stays open
        var client = FakeMyDayClient()
        let syncs = CallCounter()
        client.onChanges = { _, _ in
            syncs.increment()
            return Self.noChanges
        }
        client.onChangeFeed = { AsyncThrowingStream { _ in } }
        client.onLogout = {}
        let (session, ended) = session(client, signedIn: false)
        #expect(session.isFollowingChanges == false)
        // When the person signs in
        let signedIn = try await session.signIn { _ in account }
        // Then the diary is theirs, synced, and followed
        #expect(signedIn.id == account.id)
        #expect(session.phase == .signedIn)
        #expect(session.isFollowingChanges)
        try await pollUntil("the first refresh synced") { syncs.count >= 1 }
        // And signing out stops following
        session.didSignOut()
        #expect(session.isFollowingChanges == false)
        #expect(session.phase == .signedOut && ended.count == 1)
    }

    @Test func aRecordingKeptWhileSignedOutGoesUpOnceItsOwnerSignsInAgain() async throws {
        // Given the owner's diary, signed out (the server ended the session), and a recording kept since then
        _ = try harness.store.claim(for: account.id)
        let id = UUID()
        let temporary = try harness.library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try harness.store.recordFinished(try harness.library.finishRecording(id: id), now: Given.now)
        // And a server that takes it
        let created = Mutex<[UUID]>([])
        let target = UploadTarget(url: URL(string: "http://127.0.0.1:9/v1/blobs/x")!, headers: [:], expiresAt: Given.now)
        var client = FakeMyDayClient()
        client.onCreateEntry = { entry in
            created.withLock { $0.append(entry.id) }
            return CreatedEntry(entry: Given.serverEntry(entry.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in Given.serverEntry(id, status: .uploaded, transcript: nil) }
        client.onChanges = { _, _ in Self.noChanges }
        client.onChangeFeed = { AsyncThrowingStream { _ in } }
        let core = ClientCore(
            store: harness.store, library: harness.library, client: client, uploader: FakeBlobUploader(answers: [nil]))
        let session = AppSession(core: core, signedIn: false)
        // When its owner signs in again
        try await session.signIn { _ in account }
        // Then the recording goes up, once
        try await pollUntil("the recording was uploaded") { try harness.store.entry(id)?.state == .uploaded }
        #expect(created.withLock { $0 } == [id])
        session.didSignOut()
    }

    @Test func signingInDuringARecordingLeavesItToGoOnAndAnotherAccountCannotTakeTheDiary() async throws {
        // Given the owner's diary, signed out, and a recording started since: its start note and the PCM copy it grows
        _ = try harness.store.claim(for: account.id)
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in Self.noChanges }
        client.onChangeFeed = { AsyncThrowingStream { _ in } }
        client.onLogout = {}
        let (session, _) = session(client, signedIn: false)
        session.isRecording = { true }
        let id = UUID()
        let file = try harness.library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris)
        let growing = RecordingLibrary.pcmCopy(of: file)
        try TestMedia.wav(seconds: 1).write(to: growing)

        // When someone else signs in, the diary refuses: the recording is the owner's diary's
        let stranger = Account(id: UUID(), email: "b@example.com", name: nil, hasPassword: true, createdAt: Given.now)
        await #expect(throws: LocalStoreError.anotherAccountsEntriesUnsent) { try await session.signIn { _ in stranger } }

        // When the owner signs in, the recording is not taken for a crashed one: nothing of it is an entry yet, and
        // its file is where the capture writes it
        try await session.signIn { _ in account }
        #expect(try harness.store.entries().isEmpty)
        #expect(FileManager.default.fileExists(atPath: growing.path))

        // When it is stopped (the capture encodes it), it joins the diary whole
        try TestMedia.wav(seconds: 2).write(to: file)
        session.isRecording = { false }
        let kept = try session.core.keepRecording(id: id, duration: 2)
        #expect(try harness.store.entry(id)?.duration == 2)
        #expect(FileManager.default.fileExists(atPath: harness.library.url(of: kept.audioPath).path))
        session.didSignOut()
    }

    @Test func aSignInTheDiaryRefusesLeavesTheDeviceSignedOut() async throws {
        // Given a device that holds another account's unsent entry
        _ = try harness.store.claim(for: UUID())
        let id = UUID()
        let temporary = try harness.library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try harness.store.recordFinished(try harness.library.finishRecording(id: id), now: Given.now)
        var client = FakeMyDayClient()
        client.onLogout = {}
        let (session, _) = session(client, signedIn: false)
        // When someone else signs in, the diary refuses, and the device stays signed out, following nothing
        await #expect(throws: LocalStoreError.anotherAccountsEntriesUnsent) {
            try await session.signIn { _ in account }
        }
        #expect(session.phase == .signedOut)
        #expect(session.isFollowingChanges == false)
    }
}
