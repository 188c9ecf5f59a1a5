import Foundation
import SQLKit

/// The durable job queue in the database: enqueue inside the caller's transaction, claim with a
/// lease, extend it while working, and finish, retry or bury each job.
///
/// Every state change is guarded by the claiming worker's id and the job's running state, so a
/// worker whose lease ran out (and whose job another worker took over) cannot finish it twice.
struct JobQueue: Sendable {
    let driver: any DatabaseDriver
    /// Rung by whoever in this process queues a job, once it has committed; the worker's idle slots wait on it.
    let doorbell: JobDoorbell

    init(driver: any DatabaseDriver, doorbell: JobDoorbell = JobDoorbell()) {
        self.driver = driver
        self.doorbell = doorbell
    }

    /// Adds a job in the transaction of `db`, so it exists exactly when the change that needs it commits.
    /// `userID` names whose data the job touches, so deleting the account can remove it. Among a user's due jobs, a lower
    /// `priority` goes first, then the earlier `runAt`.
    static func enqueue(
        kind: String, payload: String, userID: UUID? = nil, maxAttempts: Int = 5, runAt: Date = Date(), priority: Int = 0,
        in db: any SQLDatabase
    ) async throws -> UUID {
        let id = UUID()
        let now = StoredTime.now()
        try await db.raw(
            """
            INSERT INTO jobs (id, kind, payload, user_id, state, attempts, max_attempts, run_at, priority, created_at, updated_at)
            VALUES (\(bind: id.lowercased), \(bind: kind), \(bind: payload), \(bind: userID?.lowercased), 'queued', 0,
                \(bind: maxAttempts), \(bind: StoredTime.milliseconds(runAt)), \(bind: priority), \(bind: now), \(bind: now))
            """
        ).run()
        return id
    }

    /// Removes, in the transaction of `db`, the user's jobs of `kinds` in `states` whose payload names `id` (payloads
    /// spell ids in either case, and PostgreSQL's LIKE minds case: both sides are lowered).
    static func remove(
        kinds: [String], states: [String], naming id: UUID, userID: UUID, in db: any SQLDatabase
    ) async throws {
        try await db.raw(
            """
            DELETE FROM jobs WHERE user_id = \(bind: userID.lowercased) AND kind IN (\(binds: kinds))
                AND state IN (\(binds: states)) AND LOWER(payload) LIKE \(bind: "%\(id.lowercased)%")
            """
        ).run()
    }

    /// Takes a due job (queued, or running with an expired lease) of the given kinds: of the user with the fewest jobs
    /// running now, so one user's fifty recordings take their turn beside everyone else's, not before them; then the one
    /// of the lowest priority number, then the oldest.
    /// On PostgreSQL, `FOR UPDATE SKIP LOCKED` lets many workers claim side by side without waiting
    /// for, or taking, each other's job; SQLite has a single writer, which serialises claims.
    func claim(kinds: [String], workerID: String, lease: Duration, now: Date = Date()) async throws -> JobRecord? {
        guard !kinds.isEmpty else { return nil }
        let nowMS = StoredTime.milliseconds(now)
        let leaseUntil = StoredTime.milliseconds(now.addingTimeInterval(lease.seconds))
        let lock: SQLQueryString = driver.engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return try await driver.write { db in
            let kindList: [SQLQueryString] = kinds.map { "\(bind: $0)" }
            return try await db.raw(
                """
                UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = \(bind: leaseUntil),
                    locked_by = \(bind: workerID), updated_at = \(bind: nowMS)
                WHERE id = (
                    SELECT id FROM jobs AS due
                    WHERE kind IN (\(kindList.joined(separator: ", "))) AND run_at <= \(bind: nowMS)
                        AND (state = 'queued' OR (state = 'running' AND lease_until < \(bind: nowMS)))
                    ORDER BY (
                        SELECT COUNT(*) FROM jobs AS running
                        WHERE running.user_id = due.user_id AND running.state = 'running'
                            AND running.lease_until >= \(bind: nowMS)
                    ), priority, run_at
                    LIMIT 1\(lock))
                RETURNING \(unsafeRaw: JobRecord.columns)
                """
            ).first().map(JobRecord.init(row:))
        }
    }

    /// Extends the lease of a job this worker still holds; false when it lost the job.
    func heartbeat(_ job: JobRecord, workerID: String, lease: Duration) async throws -> Bool {
        let leaseUntil = StoredTime.milliseconds(Date().addingTimeInterval(lease.seconds))
        return try await driver.write { db in
            try await db.raw(
                """
                UPDATE jobs SET lease_until = \(bind: leaseUntil) WHERE id = \(bind: job.id.lowercased)
                    AND state = 'running' AND locked_by = \(bind: workerID) RETURNING id
                """
            ).first() != nil
        }
    }

    /// Marks the job done, running `alsoDo` in the same transaction; false (and nothing done) when the worker lost it.
    func succeed(
        _ job: JobRecord, workerID: String, alsoDo: @escaping @Sendable (any SQLDatabase) async throws -> Void = { _ in }
    ) async throws -> Bool {
        try await finish(job, workerID: workerID, state: .succeeded, error: nil, runAt: nil, alsoDo: alsoDo)
    }

    /// Puts the job back to run again at `retryAt`.
    func retry(_ job: JobRecord, workerID: String, error: String, retryAt: Date) async throws -> Bool {
        try await finish(job, workerID: workerID, state: .queued, error: error, runAt: retryAt, alsoDo: { _ in })
    }

    /// Gives up on the job, running `alsoDo` (mark the entry failed, say) in the same transaction.
    func bury(
        _ job: JobRecord, workerID: String, error: String,
        alsoDo: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws -> Bool {
        try await finish(job, workerID: workerID, state: .dead, error: error, runAt: nil, alsoDo: alsoDo)
    }

    /// Hands a running job back untouched (its attempt not counted), for a worker that shuts down.
    func release(_ job: JobRecord, workerID: String) async throws {
        try await driver.write { db in
            try await db.raw(
                """
                UPDATE jobs SET state = 'queued', attempts = attempts - 1, lease_until = NULL, locked_by = NULL
                WHERE id = \(bind: job.id.lowercased) AND state = 'running' AND locked_by = \(bind: workerID)
                """
            ).run()
        }
    }

    /// How many jobs are in each state.
    func counts() async throws -> [JobRecord.State: Int] {
        try await driver.read { db in
            var counts: [JobRecord.State: Int] = [:]
            for row in try await db.raw("SELECT state, COUNT(*) AS n FROM jobs GROUP BY state").all() {
                if let state = JobRecord.State(rawValue: try row.decode(column: "state", as: String.self)) {
                    counts[state] = try row.decode(column: "n", as: Int.self)
                }
            }
            return counts
        }
    }

    private func finish(
        _ job: JobRecord, workerID: String, state: JobRecord.State, error: String?, runAt: Date?,
        alsoDo: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws -> Bool {
        let now = StoredTime.now()
        let runAtMS = runAt.map(StoredTime.milliseconds) ?? StoredTime.milliseconds(job.runAt)
        // A finished job keeps nothing of what it carried (a phone's transcript, an address): only that it ran.
        let payload: SQLQueryString = state == .succeeded || state == .dead ? ", payload = '{}'" : ""
        return try await driver.write { db in
            let owned = try await db.raw(
                """
                UPDATE jobs SET state = \(bind: state.rawValue), last_error = \(bind: error), run_at = \(bind: runAtMS),
                    lease_until = NULL, locked_by = NULL, updated_at = \(bind: now)\(payload)
                WHERE id = \(bind: job.id.lowercased) AND state = 'running' AND locked_by = \(bind: workerID)
                RETURNING id
                """
            ).first()
            guard owned != nil else { return false }
            try await alsoDo(db)
            return true
        }
    }
}
