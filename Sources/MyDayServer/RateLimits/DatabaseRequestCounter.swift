import SQLKit
import Synchronization

/// Request counts in the `rate_limits` table, shared by every API node of one PostgreSQL database.
/// One upsert per request, atomic by itself and outside a transaction (`writeBookkeeping`): it moves the key's
/// schedule on only while the key is under its limit. A schedule a crash loses costs a key some requests, nothing more.
final class DatabaseRequestCounter: RequestCounter {
    private let driver: any DatabaseDriver
    private let lastPrune = Mutex<Int>(0)
    private let now: @Sendable () -> Int

    /// `now`: microseconds since 1970, the unit of `rate_limits.tat`.
    init(driver: any DatabaseDriver, now: @escaping @Sendable () -> Int = RateLimit.microsecondsNow) {
        self.driver = driver
        self.now = now
    }

    /// Schedules kept in microseconds, as the limits count (they were milliseconds, which held a limit above one
    /// request a millisecond to one a millisecond).
    static let microsecondsMigration = Migration(
        version: 21, name: "rate-limit schedules in microseconds",
        statements: ["UPDATE rate_limits SET tat = tat * 1000"])

    func consume(_ key: String, limit: RateLimit) async throws -> RateLimitDecision {
        let now = self.now()
        try await pruneIfDue(now: now)
        let greatest: SQLQueryString = driver.engine == .postgres ? "GREATEST" : "MAX"
        let interval = limit.intervalMicros
        return try await driver.writeBookkeeping { db in
            let moved = try await db.raw(
                """
                INSERT INTO rate_limits (key, tat) VALUES (\(bind: key), \(bind: now + interval))
                ON CONFLICT (key) DO UPDATE SET tat = \(greatest)(rate_limits.tat, \(bind: now)) + \(bind: interval)
                WHERE \(greatest)(rate_limits.tat, \(bind: now)) + \(bind: interval) - \(bind: now) <= \(bind: limit.windowMicros)
                RETURNING tat
                """
            ).first()
            if moved != nil { return .allowed }
            let tat = try await db.raw("SELECT tat FROM rate_limits WHERE key = \(bind: key)").first()?
                .decode(column: "tat", as: Int.self)
            return limit.decide(tat: tat, now: now).decision
        }
    }

    func giveBack(_ key: String, limit: RateLimit) async throws {
        try await driver.writeBookkeeping { db in
            try await db.raw("UPDATE rate_limits SET tat = tat - \(bind: limit.intervalMicros) WHERE key = \(bind: key)").run()
        }
    }

    /// Forgets schedules that have passed, at most once a minute per process.
    private func pruneIfDue(now: Int) async throws {
        let due = lastPrune.withLock { last in
            guard now - last >= 60_000_000 else { return false }
            last = now
            return true
        }
        guard due else { return }
        try await driver.writeBookkeeping { db in try await db.raw("DELETE FROM rate_limits WHERE tat < \(bind: now)").run() }
    }
}
