import Foundation

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

    /// The usual layout in `directory`: `myday.sqlite` and the recording library beside it.
    public static func live(
        directory: URL, serverURL: URL, credentials: any CredentialStore, network: any NetworkMonitor = AssumeOnline(),
        uploader: (any BlobUploader)? = nil, report: @escaping @Sendable (UploadEvent) -> Void = { _ in }
    ) throws -> ClientCore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return ClientCore(
            store: try LocalStore(path: directory.appendingPathComponent("myday.sqlite").path),
            library: try RecordingLibrary(root: directory.appendingPathComponent("library", isDirectory: true)),
            client: LiveMyDayClient(serverURL: serverURL, credentials: credentials), uploader: uploader ?? HTTPBlobUploader(),
            network: network, report: report)
    }

    /// Once at launch: uploads a killed process left half-done go back to the queue, and recordings a
    /// crash interrupted become entries. Answers the recovered recordings.
    @discardableResult
    public func recoverAfterLaunch() throws -> [FinishedRecording] {
        try store.requeueInterruptedUploads()
        let recovered = try library.recoverInterrupted()
        for recording in recovered { try store.recordFinished(recording) }
        return recovered
    }

    /// A recording was stopped: it joins the library and the queue.
    @discardableResult
    public func keepRecording(id: UUID, duration: TimeInterval?) throws -> FinishedRecording {
        let recording = try library.finishRecording(id: id, duration: duration)
        try store.recordFinished(recording)
        return recording
    }

    /// Pull-to-refresh: send what waits (even if backing off), then sync.
    public func refresh() async throws -> (uploads: UploadSummary, sync: SyncEngine.Summary) {
        let uploads = try await uploads.sendDue(evenIfNotDue: true)
        return (uploads, try await syncEngine.sync())
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

    /// Entries whose audio or text has not reached the server yet.
    public func unsentCount() throws -> Int { try store.pendingUploads().count }

    /// Signs out and forgets this device's diary. Refuses while entries are unsent, unless `discardingUnsent`.
    public func signOut(discardingUnsent: Bool = false) async throws {
        let unsent = try unsentCount()
        guard unsent == 0 || discardingUnsent else { throw ClientCoreError.unsentEntries(unsent) }
        try await client.logout()
        for path in try store.forgetEverything() { library.removeAudio(path) }
    }

    /// Deletes the account on the server, then everything on this device.
    public func deleteAccount(password: String?) async throws {
        try await client.deleteAccount(password: password)
        for path in try store.forgetEverything() { library.removeAudio(path) }
    }
}

/// Why the client core refused an action.
public enum ClientCoreError: Error, Equatable, CustomStringConvertible {
    /// Signing out now would lose entries the server does not have.
    case unsentEntries(Int)

    public var description: String {
        switch self {
        case .unsentEntries(let count):
            "\(count) \(count == 1 ? "entry has" : "entries have") not reached the server yet; sync first, or discard them."
        }
    }
}
