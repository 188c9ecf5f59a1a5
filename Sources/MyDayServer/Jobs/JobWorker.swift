import Foundation
import Logging
import SQLKit
import ServiceLifecycle
import Synchronization

/// Runs queued jobs in `slots` concurrent loops until the service is told to stop; then it stops
/// claiming, lets running jobs finish within `shutdownGrace`, and hands back the ones that did not.
final class JobWorker: Service {
    struct Settings: Sendable {
        var slots = ProcessInfo.processInfo.activeProcessorCount
        var lease: Duration = .seconds(60)
        var pollInterval: Duration = .milliseconds(500)
        var shutdownGrace: Duration = .seconds(30)
        var retry = RetryPolicy()
    }

    let queue: JobQueue
    let handlers: [String: any JobHandler]
    let settings: Settings
    let logger: Logger
    /// Names this process in `jobs.locked_by`.
    let workerID: String
    private let stoppingSince = Mutex<ContinuousClock.Instant?>(nil)

    init(queue: JobQueue, handlers: [any JobHandler], settings: Settings, logger: Logger) {
        self.queue = queue
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }) { first, _ in first }
        self.settings = settings
        self.logger = logger
        workerID = "\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
    }

    private var isStopping: Bool { stoppingSince.withLock { $0 != nil } }

    func run() async throws {
        guard settings.slots > 0, !handlers.isEmpty else {
            try? await gracefulShutdown()
            return
        }
        logger.info("job worker started", metadata: ["slots": "\(settings.slots)", "kinds": "\(handlers.keys.sorted())"])
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<settings.slots {
                    group.addTask { await self.slotLoop() }
                }
            }
        } onGracefulShutdown: {
            self.stoppingSince.withLock { $0 = $0 ?? .now }
            self.queue.doorbell.ring()
        }
    }

    private func slotLoop() async {
        let kinds = Array(handlers.keys)
        while !isStopping && !Task.isCancelled {
            do {
                if let job = try await queue.claim(kinds: kinds, workerID: workerID, lease: settings.lease) {
                    await process(job)
                } else {
                    await queue.doorbell.wait(atMost: settings.pollInterval) { self.isStopping }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("job queue unavailable", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: settings.pollInterval)
            }
        }
    }

    /// Runs one job beside a heartbeat that extends its lease, and settles the job by the outcome.
    func process(_ job: JobRecord) async {
        guard let handler = handlers[job.kind] else { return }
        let beat = settings.lease / 3
        let lastBeat = HeartbeatClock()
        // Renewals come often, to see shutdown's grace run out; the lease itself is extended every third of it.
        let outcome = await runRenewingLease(
            every: min(beat, .milliseconds(250)), renew: { await self.heartbeat(job, every: beat, last: lastBeat) },
            { try await handler.run(job) })
        do {
            try await settle(job, handler: handler, outcome: outcome)
        } catch {
            logger.error(
                "a job's outcome could not be stored; its lease will expire and it will run again", metadata: ["job": "\(job.id)"]
            )
        }
    }

    /// Extends the lease when a beat is due; hands the job back once shutdown's grace ran out.
    private func heartbeat(_ job: JobRecord, every beat: Duration, last: HeartbeatClock) async -> LeaseRenewal {
        if let since = stoppingSince.withLock({ $0 }), ContinuousClock.now - since >= settings.shutdownGrace {
            return .handBack
        }
        guard last.isDue(every: beat) else { return .keep }
        do {
            return try await queue.heartbeat(job, workerID: workerID, lease: settings.lease) ? .keep : .lost
        } catch {
            logger.warning("job heartbeat failed; retrying", metadata: ["job": "\(job.id)"])
            return .keep
        }
    }

    private func settle(_ job: JobRecord, handler: any JobHandler, outcome: LeasedRun<JobCompletion>) async throws {
        let metadata: Logger.Metadata = ["job": "\(job.id)", "kind": "\(job.kind)", "attempt": "\(job.attempts)"]
        switch outcome {
        case .handedBack:
            try await queue.release(job, workerID: workerID)
            logger.notice("job handed back at shutdown", metadata: metadata)
        case .lost:
            logger.warning("job lease lost to another worker; its result is dropped", metadata: metadata)
        case .finished(.success(let completion)):
            if try await queue.succeed(job, workerID: workerID, alsoDo: completion) {
                logger.info("job succeeded", metadata: metadata)
            }
        case .finished(.failure(let error)):
            // Operators see the error itself (in `jobs.last_error` and the log); the entry's owner a plain sentence.
            let detail = String(describing: error)
            let reason =
                (error as? JobFailure)?.description ?? "It failed \(job.attempts) times; the server's log has the details."
            if error is JobFailure || job.attempts >= job.maxAttempts {
                _ = try await queue.bury(job, workerID: workerID, error: detail) { db in
                    try await handler.jobDied(job, reason: reason, in: db)
                }
                logger.error("job given up", metadata: metadata.merging(["error": "\(detail)"]) { $1 })
            } else {
                let delay = settings.retry.delay(afterAttempt: job.attempts)
                _ = try await queue.retry(
                    job, workerID: workerID, error: detail, retryAt: Date().addingTimeInterval(delay.seconds))
                logger.warning(
                    "job failed; will retry", metadata: metadata.merging(["in_ms": "\(delay.milliseconds)"]) { $1 })
            }
        }
    }
}

/// When a job's lease was last extended.
private final class HeartbeatClock: Sendable {
    private let last = Mutex(ContinuousClock.now)

    /// Whether `beat` has passed since the last extension; if so, the next one counts from now.
    func isDue(every beat: Duration) -> Bool {
        last.withLock { last in
            guard ContinuousClock.now - last >= beat else { return false }
            last = .now
            return true
        }
    }
}
