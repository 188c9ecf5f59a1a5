import Foundation

/// A `BlobUploader` whose uploads outlive the app: it keeps which task uploads which file in a ledger on disk,
/// so after a relaunch an upload still running is awaited instead of started again, and one the system
/// finished while the app was gone is not sent twice.
public actor BackgroundUploader: BlobUploader {
    /// One task the ledger knows: the recording's file name and, once it ended while nobody waited, how.
    struct TrackedTask: Codable, Equatable {
        let file: String
        var outcome: Outcome?
    }

    enum Outcome: Codable, Equatable {
        case succeeded
        case refused(status: Int, retryAfter: TimeInterval?)
        case unreachable(String)
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Void, any Error>
        let progress: @Sendable (Int64, Int64) -> Void
    }

    private let transfer: any BackgroundTransfer
    private let ledgerFile: URL
    private var tasks: [Int: TrackedTask]
    private var waiters: [Int: [Waiter]] = [:]
    /// Tasks that ended before `startUpload` had answered their identifier.
    private var earlyOutcomes: [Int: Outcome] = [:]
    private var reconciled = false

    public init(transfer: any BackgroundTransfer, ledgerFile: URL) throws {
        self.transfer = transfer
        self.ledgerFile = ledgerFile
        if FileManager.default.fileExists(atPath: ledgerFile.path) {
            let saved = try JSONDecoder().decode([String: TrackedTask].self, from: Data(contentsOf: ledgerFile))
            tasks = Dictionary(uniqueKeysWithValues: saved.compactMap { key, task in Int(key).map { ($0, task) } })
        } else {
            tasks = [:]
        }
    }

    /// Tasks an `upload` call is waiting for now.
    var awaitedTaskIDs: Set<Int> { Set(waiters.keys) }

    /// Consumes the transfer's events until cancelled; start it once at launch.
    public func run() async {
        for await event in transfer.events {
            handle(event)
        }
    }

    public func upload(
        _ file: URL, to target: UploadTarget, progress: @escaping @Sendable (_ sent: Int64, _ total: Int64) -> Void
    ) async throws {
        await forgetTasksTheSystemDropped()
        let name = file.lastPathComponent
        if let (taskID, task) = tasks.first(where: { $0.value.file == name }) {
            switch task.outcome {
            case nil, .succeeded:
                // Still running, or done while the app was away.
                return try await wait(for: taskID, progress: progress)
            case .refused, .unreachable:
                // It failed while nobody waited: send again, to the fresh target.
                tasks[taskID] = nil
                try save()
            }
        }
        let taskID = try await transfer.startUpload(file, to: target)
        tasks[taskID] = TrackedTask(file: name, outcome: earlyOutcomes.removeValue(forKey: taskID))
        try save()
        // The system has the upload now, whatever becomes of this app: that is worth saying before any byte is sent.
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? 0
        progress(0, size)
        try await wait(for: taskID, progress: progress)
    }

    /// Tasks the ledger had as running that the system no longer has (the app was reinstalled, or the
    /// system dropped them) are forgotten, so their files are sent again.
    private func forgetTasksTheSystemDropped() async {
        guard !reconciled else { return }
        reconciled = true
        let running = await transfer.runningTaskIDs()
        let dropped = tasks.filter { $0.value.outcome == nil && !running.contains($0.key) && waiters[$0.key] == nil }
        guard !dropped.isEmpty else { return }
        for taskID in dropped.keys { tasks[taskID] = nil }
        try? save()
    }

    /// Returns once the task succeeded, throws how it failed; a task that already ended answers at once.
    private func wait(for taskID: Int, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws {
        if let outcome = tasks[taskID]?.outcome {
            tasks[taskID] = nil
            try save()
            return try Self.result(of: outcome)
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters[taskID, default: []].append(Waiter(continuation: continuation, progress: progress))
            }
        } onCancel: {
            Task { await self.stopWaiting(for: taskID) }
        }
    }

    /// The callers went away; the task goes on and a later `upload` of the same file waits for it again.
    private func stopWaiting(for taskID: Int) {
        for waiter in waiters.removeValue(forKey: taskID) ?? [] { waiter.continuation.resume(throwing: CancellationError()) }
    }

    private func handle(_ event: BackgroundTransferEvent) {
        switch event {
        case .sent(let taskID, let bytes, let total):
            for waiter in waiters[taskID] ?? [] { waiter.progress(bytes, total) }
        case .finished(let taskID, let status, let retryAfter, let error):
            let outcome: Outcome =
                switch status {
                case .some(let status) where (200..<300).contains(status): .succeeded
                case .some(let status): .refused(status: status, retryAfter: RetryAfter.seconds(retryAfter))
                case nil: .unreachable(error ?? "no answer")
                }
            if let waiting = waiters.removeValue(forKey: taskID) {
                tasks[taskID] = nil
                try? save()
                for waiter in waiting { waiter.continuation.resume(with: Result { try Self.result(of: outcome) }) }
            } else if tasks[taskID] != nil {
                tasks[taskID]?.outcome = outcome
                try? save()
            } else {
                earlyOutcomes[taskID] = outcome
            }
        }
    }

    private static func result(of outcome: Outcome) throws {
        switch outcome {
        case .succeeded: return
        case .refused(let status, let retryAfter): throw BlobUploadError(status: status, retryAfter: retryAfter)
        case .unreachable(let reason): throw BackgroundTransferFailure(reason: reason)
        }
    }

    private func save() throws {
        let saved = Dictionary(uniqueKeysWithValues: tasks.map { (String($0.key), $0.value) })
        try FileSystem.write(JSONEncoder().encode(saved), replacing: ledgerFile)
    }
}
