import Foundation
import MyDayModels

/// Sends queued entries to the server: create (idempotent by id) → PUT the audio → complete.
///
/// Every pending upload is a row in the local store, so the queue resumes after a restart. Network
/// errors, 5xx and 429 are retried with `Backoff` (and `Retry-After`); only answers that retrying cannot
/// change (other 4xx) give up, with the reason kept on the entry. Local audio is never deleted here.
/// Each attempt creates the entry again, which also answers a fresh upload URL when the old one expired.
public actor UploadQueue {
    private let store: LocalStore
    private let client: any MyDayClient
    private let uploader: any BlobUploader
    private let library: RecordingLibrary
    private let network: any NetworkMonitor
    private let backoff: Backoff
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let report: @Sendable (UploadEvent) -> Void
    private var sleeper: Task<Void, Never>?

    public init(
        store: LocalStore, client: any MyDayClient, uploader: any BlobUploader, library: RecordingLibrary,
        network: any NetworkMonitor = AssumeOnline(), backoff: Backoff = Backoff(),
        now: @escaping @Sendable () -> Date = Date.init, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        report: @escaping @Sendable (UploadEvent) -> Void = { _ in }
    ) {
        self.store = store
        self.client = client
        self.uploader = uploader
        self.library = library
        self.network = network
        self.backoff = backoff
        self.now = now
        self.random = random
        self.report = report
    }

    /// One pass: sends every upload that is due now, oldest first; with `evenIfNotDue`, also those waiting out a backoff.
    @discardableResult
    public func sendDue(evenIfNotDue: Bool = false) async throws -> UploadSummary {
        var summary = UploadSummary()
        guard await network.allowsUploads else {
            summary.pausedBecause = "offline"
            report(.paused(reason: "offline"))
            return summary
        }
        for (upload, entry) in try sendable() where evenIfNotDue || upload.nextAttemptAt <= now() {
            // The list is a snapshot: claiming re-checks that the entry is still queued and takes it.
            guard let claimed = try store.claimForUpload(entry.id) else { continue }
            switch try await send(claimed, upload) {
            case .uploaded: summary.uploaded += 1
            case .alreadyInTheDiary: summary.alreadyInTheDiary += 1
            case .retrying(let throttled):
                summary.retrying += 1
                if throttled { summary.throttled += 1 }
            case .gaveUp: summary.gaveUp += 1
            case .paused(let reason):
                summary.pausedBecause = reason
                report(.paused(reason: reason))
                return summary
            }
        }
        return summary
    }

    /// In the background: starts every due upload at once (even one waiting out a backoff) and returns as soon as each
    /// has been handed to the uploader (its first progress: a background session has it now) or has ended. The uploads
    /// go on after it returns; the system reports them to the next launch, whose pass completes them. A background
    /// task's time is short and the system runs background transfers when it chooses: waiting for them would use it up.
    /// Answers how many uploads were handed over or finished.
    @discardableResult
    public func handOverDue() async throws -> Int {
        guard await network.allowsUploads else {
            report(.paused(reason: "offline"))
            return 0
        }
        let handedOver = HandOver()
        var started: [UUID] = []
        for (upload, entry) in try sendable() {
            guard let claimed = try store.claimForUpload(entry.id) else { continue }
            started.append(claimed.id)
            Task {
                _ = try? await self.send(claimed, upload, handedOver: { handedOver.done(claimed.id) })
                handedOver.done(claimed.id)
            }
        }
        await handedOver.wait(for: started)
        return started.count
    }

    /// The uploads that may be sent: queued, not deleted here, not waiting for the phone's words.
    private func sendable() throws -> [(upload: PendingUpload, entry: LocalEntry)] {
        try store.pendingUploads().filter { upload, entry in
            entry.state == .queued && !entry.pendingDelete && !upload.awaitsDeviceTranscript
        }
    }

    /// Works until cancelled: sends what is due, then waits for the next due time, a network change or `wake()`.
    public func run() async {
        let network = network
        let watcher = Task { [weak self] in
            for await _ in network.changes() { await self?.wake() }
        }
        defer { watcher.cancel() }
        while !Task.isCancelled {
            let summary = try? await sendDue()
            // The next attempt of what is sendable: an entry deleted here waits on no attempt.
            let next = (try? sendable())?.map(\.upload.nextAttemptAt).min()
            let wait = summary?.pausedBecause != nil || next == nil ? 3600 : max(0, next!.timeIntervalSince(now()))
            let sleeper = Task<Void, Never> { try? await Task.sleep(for: .seconds(wait)) }
            self.sleeper = sleeper
            await withTaskCancellationHandler {
                await sleeper.value
            } onCancel: {
                sleeper.cancel()
            }
        }
    }

    /// Ends the current wait of `run()`: something was queued, or the network came back.
    public func wake() {
        sleeper?.cancel()
    }

    private enum Outcome {
        case uploaded, alreadyInTheDiary, gaveUp
        /// Put off; `throttled` when the server asked for the wait (429 or 503 with `Retry-After`).
        case retrying(throttled: Bool)
        case paused(String)
    }

    /// One attempt; `handedOver` is told when the uploader has the audio (its first progress) or there is none to send.
    private func send(
        _ entry: LocalEntry, _ upload: PendingUpload, handedOver: @escaping @Sendable () -> Void = {}
    ) async throws -> Outcome {
        report(.started(entry.id))
        let attempts = upload.attempts
        let transcript = upload.deviceTranscript
        do {
            var request = entry.newEntryRequest
            request.sourceSHA256 = upload.sourceSHA256
            let created = try await client.createEntry(request)
            var server = created.entry
            if server.id != entry.id {
                // An imported file the server already made an entry of (by the hash of its bytes).
                if let path = try store.forgetDuplicateImport(entry.id, existing: server.id) { library.removeAudio(path) }
                handedOver()
                report(.alreadyInTheDiary(entry.id, as: server.id))
                return .alreadyInTheDiary
            }
            if entry.kind == .audio {
                if let target = created.upload {
                    guard let path = entry.audioPath, FileManager.default.fileExists(atPath: library.url(of: path).path) else {
                        return try giveUp(entry.id, reason: "The audio file is missing on this device.")
                    }
                    let id = entry.id
                    let report = report
                    do {
                        try await uploader.upload(library.url(of: path), to: target) { sent, total in
                            handedOver()
                            report(.progress(id, sent: sent, total: total))
                        }
                    } catch let error as BlobUploadError where error.status == 409 {
                        // An earlier attempt of this recording stored the audio after this attempt created the
                        // entry (its completion raced this one): completing below answers the stored entry.
                    }
                }
                if server.status == .pendingUpload { server = try await complete(entry.id, transcript: transcript) }
            }
            try store.markUploaded(server)
            report(.uploaded(entry.id))
            return .uploaded
        } catch {
            switch UploadFailure(error) {
            case .retry(let reason, let retryAfter):
                let wait = backoff.delay(afterAttempts: attempts + 1, retryAfter: retryAfter, random: random())
                let next = now().addingTimeInterval(wait)
                try store.markUploadRetry(entry.id, reason: reason, next: next)
                report(.willRetry(entry.id, reason: reason, at: next))
                return .retrying(throttled: retryAfter != nil)
            case .permanent(let reason):
                return try giveUp(entry.id, reason: reason)
            case .pause(let reason):
                try store.markUploadPaused(entry.id, reason: reason)
                return .paused(reason)
            }
        }
    }

    /// Completes with the device's words; when the server refuses those words (422, or 413 for too many),
    /// completes without them, so the server transcribes and the recording is not held back by its transcript.
    private func complete(_ id: UUID, transcript: DeviceTranscript?) async throws -> ServerEntry {
        guard let transcript else { return try await client.completeUpload(of: id) }
        do {
            return try await client.completeUpload(of: id, transcript: transcript)
        } catch MyDayClientError.server(let status, _, _, _) where status == 422 || status == 413 {
            try store.attachDeviceTranscript(nil, to: id)
            return try await client.completeUpload(of: id)
        }
    }

    private func giveUp(_ id: UUID, reason: String) throws -> Outcome {
        try store.markUploadGaveUp(id, reason: reason)
        report(.gaveUp(id, reason: reason))
        return .gaveUp
    }
}

/// Which uploads `UploadQueue.handOverDue` still waits to see handed over, and the wait for all of them.
private final class HandOver: @unchecked Sendable {
    private let lock = NSLock()
    private var done: Set<UUID> = []
    private var waiting: (ids: Set<UUID>, continuation: CheckedContinuation<Void, Never>)?

    /// The upload of `id` is with the uploader now, or ended; saying it again does nothing.
    func done(_ id: UUID) {
        let finished = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            done.insert(id)
            guard let waiting, waiting.ids.isSubset(of: done) else { return nil }
            self.waiting = nil
            return waiting.continuation
        }
        finished?.resume()
    }

    /// Returns once every one of `ids` is done.
    func wait(for ids: [UUID]) async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if Set(ids).isSubset(of: done) { return true }
                waiting = (Set(ids), continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
