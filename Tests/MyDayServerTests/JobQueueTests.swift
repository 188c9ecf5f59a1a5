import Foundation
import Logging
import MyDayTestSupport
import SQLKit
import ServiceLifecycle
import Synchronization
import Testing

@testable import MyDayServer

/// A handler whose behaviour each test chooses, recording every run.
final class ScriptedHandler: JobHandler {
    enum Behaviour: Sendable {
        case succeed
        case fail
        case failPermanently
        case waitUntilCancelled
    }

    let kind = "test"
    let behaviour: Behaviour
    private let runs = Mutex<[UUID]>([])

    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    var runIDs: [UUID] { runs.withLock { $0 } }

    func run(_ job: JobRecord) async throws -> JobCompletion {
        runs.withLock { $0.append(job.id) }
        switch behaviour {
        case .succeed:
            return { db in
                try await db.raw("INSERT INTO test_results (job_id, note) VALUES (\(bind: job.id.lowercased), 'done')").run()
            }
        case .fail: throw CocoaError(.fileReadUnknown)
        case .failPermanently: throw JobFailure.permanent("the input can never work")
        case .waitUntilCancelled:
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        try await db.raw(
            "INSERT INTO test_results (job_id, note) VALUES (\(bind: job.id.lowercased), \(bind: "died: " + reason))"
        ).run()
    }
}

@Suite(.serialized) struct JobQueueTests {
    private func withQueue<T>(_ database: TestDatabase, _ body: (any DatabaseDriver, JobQueue) async throws -> T) async throws
        -> T
    {
        let configuration = try await database.freshConfiguration()
        return try await DatabaseDriverFactory.withDriver(configuration: configuration, logger: Logger(label: "test")) {
            driver in
            try await Migrator.migrate(driver)
            try await driver.write { db in
                try await db.raw("CREATE TABLE test_results (job_id TEXT NOT NULL, note TEXT NOT NULL)").run()
            }
            return try await body(driver, JobQueue(driver: driver))
        }
    }

    private func enqueue(_ driver: any DatabaseDriver, count: Int = 1, maxAttempts: Int = 3) async throws -> [UUID] {
        try await driver.write { db in
            var ids: [UUID] = []
            for _ in 0..<count {
                ids.append(try await JobQueue.enqueue(kind: "test", payload: "{}", maxAttempts: maxAttempts, in: db))
            }
            return ids
        }
    }

    private func notes(_ driver: any DatabaseDriver) async throws -> [String] {
        try await driver.read { db in
            try await db.raw("SELECT note FROM test_results").all().map { try $0.decode(column: "note", as: String.self) }
        }
    }

    private func worker(
        _ queue: JobQueue, _ handler: ScriptedHandler, slots: Int = 2, pollInterval: Duration = .milliseconds(20)
    ) -> JobWorker {
        var settings = JobWorker.Settings()
        settings.slots = slots
        settings.lease = .seconds(5)
        settings.pollInterval = pollInterval
        settings.shutdownGrace = .milliseconds(200)
        settings.retry = RetryPolicy(base: .milliseconds(10), maximum: .milliseconds(50))
        var logger = Logger(label: "test-worker")
        logger.logLevel = .critical
        return JobWorker(queue: queue, handlers: [handler], settings: settings, logger: logger)
    }

    /// Runs `workers` until `done` holds, then shuts them down gracefully.
    private func run(_ workers: [JobWorker], until done: @escaping @Sendable () async throws -> Bool) async throws {
        try await run(workers) {
            try await pollUntil("the workers are done", every: .milliseconds(20)) { try await done() }
        }
    }

    /// Runs `workers` while `body` runs, then shuts them down gracefully.
    private func run(_ workers: [JobWorker], while body: () async throws -> Void) async throws {
        var logger = Logger(label: "test-group")
        logger.logLevel = .critical
        let group = ServiceGroup(services: workers, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var failure: (any Error)?
            do {
                try await body()
            } catch {
                failure = error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            if let failure { throw failure }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aJobRunsOnceAndItsResultCommitsWithIt(_ database: TestDatabase) async throws {
        try await withQueue(database) { driver, queue in
            let handler = ScriptedHandler(.succeed)
            let ids = try await enqueue(driver)
            try await run([worker(queue, handler)]) { try await queue.counts()[.succeeded] == 1 }
            #expect(handler.runIDs == ids)
            #expect(try await notes(driver) == ["done"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func theDoorbellStartsAQueuedJobWithoutWaitingForThePoll(_ database: TestDatabase) async throws {
        try await withQueue(database) { driver, queue in
            // Given a worker that would look at the queue again only in an hour, both its slots idle
            let handler = ScriptedHandler(.succeed)
            let idle = worker(queue, handler, pollInterval: .seconds(3600))
            try await run(
                [idle],
                while: {
                    try await pollUntil("both slots wait", every: .milliseconds(20)) { queue.doorbell.waitingSlots == 2 }
                    // When a job commits and the bell rings
                    let ids = try await enqueue(driver)
                    queue.doorbell.ring()
                    // Then it runs now
                    try await pollUntil("the job ran", every: .milliseconds(20)) { try await queue.counts()[.succeeded] == 1 }
                    #expect(handler.runIDs == ids)
                })
        }
    }

    @Test(arguments: TestDatabase.available)
    func oneUsersManyJobsDoNotHoldBackAnothersJob(_ database: TestDatabase) async throws {
        try await withQueue(database) { driver, queue in
            // Given fifty jobs of one user, then one job of another, queued later
            let busy = UUID()
            let other = UUID()
            let now = Date()
            try await driver.write { db in
                for index in 0..<50 {
                    _ = try await JobQueue.enqueue(
                        kind: "test", payload: "{}", userID: busy, runAt: now.addingTimeInterval(-100 + Double(index)), in: db)
                }
                _ = try await JobQueue.enqueue(kind: "test", payload: "{}", userID: other, runAt: now, in: db)
            }
            // When two worker slots claim
            let first = try #require(try await queue.claim(kinds: ["test"], workerID: "a", lease: .seconds(60), now: now))
            let second = try #require(try await queue.claim(kinds: ["test"], workerID: "b", lease: .seconds(60), now: now))
            // Then the oldest job runs first, and the other user's job takes the second slot
            #expect(first.userID == busy)
            #expect(second.userID == other)
        }
    }

    @Test(arguments: TestDatabase.available)
    func failingJobsRetryWithBackoffThenDie(_ database: TestDatabase) async throws {
        try await withQueue(database) { driver, queue in
            let handler = ScriptedHandler(.fail)
            let ids = try await enqueue(driver, maxAttempts: 3)
            try await run([worker(queue, handler)]) { try await queue.counts()[.dead] == 1 }
            #expect(handler.runIDs == Array(repeating: ids[0], count: 3))
            let notes = try await notes(driver)
            #expect(notes.count == 1 && notes[0].hasPrefix("died: "))
            let job = try await driver.read { db in
                try await db.raw("SELECT \(unsafeRaw: JobRecord.columns) FROM jobs").first().map(JobRecord.init(row:))
            }
            #expect(job?.attempts == 3 && job?.lastError != nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aPermanentFailureIsNotRetried(_ database: TestDatabase) async throws {
        try await withQueue(database) { driver, queue in
            let handler = ScriptedHandler(.failPermanently)
            _ = try await enqueue(driver, maxAttempts: 5)
            try await run([worker(queue, handler)]) { try await queue.counts()[.dead] == 1 }
            #expect(handler.runIDs.count == 1)
            #expect(try await notes(driver) == ["died: the input can never work"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func aJobWhoseWorkerDiedIsTakenOverAfterItsLease(_ database: TestDatabase) async throws {
        try await withQueue(database) { driver, queue in
            // Given a job claimed by a worker that then vanished (no heartbeat)
            _ = try await enqueue(driver)
            let now = Date()
            let ghost = try #require(try await queue.claim(kinds: ["test"], workerID: "ghost", lease: .seconds(60), now: now))

            // When another worker looks before the lease ran out, it finds nothing; after, it takes the job over
            let early = try await queue.claim(
                kinds: ["test"], workerID: "rescuer", lease: .seconds(60), now: now.addingTimeInterval(59))
            #expect(early == nil)
            let late = try await queue.claim(
                kinds: ["test"], workerID: "rescuer", lease: .seconds(60), now: now.addingTimeInterval(61))
            let rescued = try #require(late)
            #expect(rescued.id == ghost.id && rescued.attempts == 2)

            // Then the job's result is stored once, by the worker that holds it; the vanished one can no longer finish it
            #expect(
                try await queue.succeed(ghost, workerID: "ghost") { _ in Issue.record("a lost job's result was stored") } == false
            )
            #expect(try await queue.heartbeat(ghost, workerID: "ghost", lease: .seconds(60)) == false)
            #expect(try await queue.succeed(rescued, workerID: "rescuer"))
            #expect(try await queue.counts()[.succeeded] == 1)
        }
    }

    @Test(arguments: TestDatabase.available)
    func shutdownHandsUnfinishedJobsBack(_ database: TestDatabase) async throws {
        try await withQueue(database) { driver, queue in
            let handler = ScriptedHandler(.waitUntilCancelled)
            _ = try await enqueue(driver)
            try await run([worker(queue, handler)]) { handler.runIDs.count == 1 }
            let job = try await driver.read { db in
                try await db.raw("SELECT \(unsafeRaw: JobRecord.columns) FROM jobs").first().map(JobRecord.init(row:))
            }
            #expect(job?.state == .queued && job?.attempts == 0 && job?.leaseUntil == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func workersShareTheQueueWithoutDoubleWork(_ database: TestDatabase) async throws {
        let configuration = try await database.freshConfiguration()
        let logger = Logger(label: "test")
        // Two workers with connections of their own, as two processes would have on PostgreSQL; SQLite
        // serves one process, so there they share its connections as two slots of one server would
        let first = try await DatabaseDriverFactory.open(configuration: configuration, logger: logger)
        let second =
            database == .postgres ? try await DatabaseDriverFactory.open(configuration: configuration, logger: logger) : first
        do {
            try await Migrator.migrate(first)
            try await first.write { db in
                try await db.raw("CREATE TABLE test_results (job_id TEXT NOT NULL, note TEXT NOT NULL)").run()
            }
            let ids = try await enqueue(first, count: 50)
            let handlers = [ScriptedHandler(.succeed), ScriptedHandler(.succeed)]
            let queues = [JobQueue(driver: first), JobQueue(driver: second)]
            try await run([worker(queues[0], handlers[0]), worker(queues[1], handlers[1])]) {
                try await queues[0].counts()[.succeeded] == 50
            }
            let runs = handlers[0].runIDs + handlers[1].runIDs
            #expect(runs.count == 50 && Set(runs) == Set(ids))
            #expect(try await notes(first).count == 50)
        } catch {
            await first.shutdown()
            if database == .postgres { await second.shutdown() }
            throw error
        }
        await first.shutdown()
        if database == .postgres { await second.shutdown() }
    }

    @Test func backoffGrowsWithJitterUpToItsCeiling() {
        let policy = RetryPolicy(base: .seconds(2), maximum: .seconds(60))
        #expect(policy.delay(afterAttempt: 1, jitter: 1) == .seconds(2))
        #expect(policy.delay(afterAttempt: 3, jitter: 1) == .seconds(8))
        #expect(policy.delay(afterAttempt: 3, jitter: 0.5) == .seconds(4))
        #expect(policy.delay(afterAttempt: 40, jitter: 1) == .seconds(60))
        for attempt in 1...10 {
            let delay = policy.delay(afterAttempt: attempt)
            #expect(delay > .zero && delay <= .seconds(60))
        }
    }
}
