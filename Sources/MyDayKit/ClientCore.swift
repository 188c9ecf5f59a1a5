import Foundation
import MyDayModels

/// MyDayKit wired together for one device: the store, the recording library, the API client, the
/// upload queue and the sync engine. Apps and the CLI build one and hand its parts to their screens.
public final class ClientCore: Sendable {
    public let store: LocalStore
    public let library: RecordingLibrary
    public let client: any MyDayClient
    public let uploads: UploadQueue
    public let syncEngine: SyncEngine

    public init(
        store: LocalStore, library: RecordingLibrary, client: any MyDayClient, uploader: any BlobUploader,
        network: any NetworkMonitor = AssumeOnline(), report: @escaping @Sendable (UploadEvent) -> Void = { _ in }
    ) {
        self.store = store
        self.library = library
        self.client = client
        self.uploads = UploadQueue(
            store: store, client: client, uploader: uploader, library: library, network: network, report: report)
        self.syncEngine = SyncEngine(store: store, client: client, library: library)
    }

    /// The diary's database file in the directory `live` opens.
    public static let storeFileName = "myday.sqlite"

    /// The usual layout in `directory`: `myday.sqlite` and the recording library beside it.
    public static func live(
        directory: URL, serverURL: URL, credentials: any CredentialStore, network: any NetworkMonitor = AssumeOnline(),
        uploader: (any BlobUploader)? = nil, report: @escaping @Sendable (UploadEvent) -> Void = { _ in }
    ) throws -> ClientCore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return ClientCore(
            store: try LocalStore(path: directory.appendingPathComponent(storeFileName).path),
            library: try RecordingLibrary(root: directory.appendingPathComponent("library", isDirectory: true)),
            client: LiveMyDayClient(serverURL: serverURL, credentials: credentials), uploader: uploader ?? HTTPBlobUploader(),
            network: network, report: report)
    }

    /// Once at launch: uploads a killed process left half-done go back to the queue, and recordings a
    /// crash interrupted become entries. Answers the recovered recordings.
    @discardableResult
    public func recoverAfterLaunch() throws -> [FinishedRecording] {
        try store.requeueInterruptedUploads()
        return try recoverInterruptedRecordings()
    }

    /// Recordings a failed take left in the library become queued entries now, not only at the next launch.
    /// Call it only while no recording is under way: one in progress would be taken for a failed one.
    @discardableResult
    public func recoverInterruptedRecordings() throws -> [FinishedRecording] {
        let recovered = try library.recoverInterrupted()
        for recording in recovered { try record(recording) }
        return recovered
    }

    /// A recording was stopped: it joins the library and the queue. With `awaitingDeviceTranscript`, its upload
    /// waits until `transcribeOnDevice` has run.
    @discardableResult
    public func keepRecording(id: UUID, duration: TimeInterval?, awaitingDeviceTranscript: Bool = false) throws
        -> FinishedRecording
    {
        let recording = try library.finishRecording(id: id, duration: duration)
        try record(recording, awaitingDeviceTranscript: awaitingDeviceTranscript)
        return recording
    }

    /// Transcribes a kept recording on the device and lets its upload go, with the words or, when the
    /// transcriber fails or takes longer than `limit`, without them (the server transcribes then).
    public func transcribeOnDevice(
        _ recording: FinishedRecording, with transcriber: any DeviceTranscriber, locale: Locale, limit: Duration
    ) async {
        let file = library.url(of: recording.audioPath)
        let transcript = try? await withTimeLimit(limit) { try await transcriber.transcribe(file, locale: locale) }
        try? store.attachDeviceTranscript(transcript, to: recording.id)
        await uploads.wake()
    }

    /// Writes the entry (once), then lets the library forget the recording's start note.
    private func record(_ recording: FinishedRecording, awaitingDeviceTranscript: Bool = false) throws {
        if try store.entry(recording.id) == nil {
            try store.recordFinished(recording, awaitingDeviceTranscript: awaitingDeviceTranscript)
        }
        library.forgetStart(of: recording.id)
    }

    /// Signs in with `operation` (a login, a registration, a provider sign-in) and ties this device's
    /// diary to the account (`LocalStore.claim(for:)`); when the device holds another account's unsent
    /// entries (recordings a failed take left included, and one `recordingUnderWay`), the new session is ended again
    /// and the error thrown.
    @discardableResult
    public func signIn(recordingUnderWay: Bool = false, _ operation: (any MyDayClient) async throws -> Account)
        async throws -> Account
    {
        // What a failed take left is the diary's too: it must count as unsent before the diary changes hands. A
        // recording under way is no failed take: its start note and growing file stay where its capture writes them.
        if !recordingUnderWay { try recoverInterruptedRecordings() }
        let account = try await operation(client)
        do {
            for path in try store.claim(for: account.id, holdingUnsent: recordingUnderWay) { library.removeAudio(path) }
        } catch {
            try? await client.logout()
            throw error
        }
        return account
    }

    /// Pull-to-refresh: send what waits (even if backing off), then sync.
    public func refresh() async throws -> (uploads: UploadSummary, sync: SyncEngine.Summary) {
        let uploads = try await uploads.sendDue(evenIfNotDue: true)
        return (uploads, try await syncEngine.sync())
    }

    /// The background refresh: every saved recording is handed to the uploader without waiting for its end (the system
    /// finishes background transfers when it chooses and reports them to the next launch), then the diary is synced.
    public func refreshInBackground() async throws -> SyncEngine.Summary {
        try await handOverForBackground()
        return try await syncEngine.sync()
    }

    /// The app leaves the screen (or wakes in the background): every saved recording goes to the background upload now,
    /// also one whose words this device was still making, which the server transcribes instead (a phone in the pocket
    /// gives an app no time to finish them). Answers how many were handed over.
    @discardableResult
    public func handOverForBackground() async throws -> Int {
        try store.stopWaitingForDeviceTranscripts()
        return try await uploads.handOverDue()
    }

    /// "Failed — tap to retry": a refused upload goes back to the queue and is sent; a failed transcription starts again.
    public func retry(_ id: UUID) async throws {
        switch try store.entry(id)?.state {
        case .uploadFailed:
            try store.retryUpload(id)
            _ = try await uploads.sendDue()
        case .failed: try await retranscribe(id)
        default: return
        }
    }

    /// Asks the server for a fresh transcript of the same audio, then brings the entry's new state in.
    public func retranscribe(_ id: UUID) async throws {
        _ = try await client.retranscribe(id)
        _ = try await syncEngine.sync()
    }

    /// Removes from this device the audio the server confirmed longer ago than `keeping` allows (it still plays, from
    /// the server). Audio the server does not have yet is never removed.
    public func releaseUploadedAudio(keeping: AudioKeeping, now: Date = Date()) throws {
        guard let cutoff = keeping.cutoff(now: now) else { return }
        for path in try store.releaseConfirmedAudio(confirmedBefore: cutoff) { library.removeAudio(path) }
    }

    /// Entries, edits and deletions that have not reached the server yet.
    public func unsentCount() throws -> Int { try store.unsentCount() }

    /// A typed note joins today and goes up as soon as it can; an empty one is refused.
    public func writeNote(_ text: String) async throws {
        let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !words.isEmpty else { throw EmptyNote() }
        try store.noteWritten(words)
        await uploads.wake()
    }

    /// Forgets this device's diary and signs out. Refuses while anything is unsent (recordings a failed take left
    /// included), unless `discardingUnsent`. Call it only while no recording is under way.
    public func signOut(discardingUnsent: Bool = false) async throws {
        try recoverInterruptedRecordings()
        let forgotten = discardingUnsent ? try store.forgetEverything() : try store.forgetEverythingIfAllSent()
        forgotten.forEach(library.removeAudio)
        try library.discardIncoming()
        try await client.logout()
    }

    /// Deletes the account on the server, then everything on this device.
    public func deleteAccount(proof: SignInProof?) async throws {
        try await client.deleteAccount(proof: proof)
        for path in try store.forgetEverything() { library.removeAudio(path) }
        try library.discardIncoming()
    }
}

/// A note with no words: nothing was saved.
public struct EmptyNote: LocalizedError {
    public var errorDescription: String? { "A note needs some words." }
}
