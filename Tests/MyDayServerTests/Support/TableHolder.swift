import Foundation
import MyDayTestSupport
import SQLKit
import Synchronization

@testable import MyDayServer

/// On PostgreSQL, a table locked by a transaction of its own until as many transactions wait for a lock as a test is
/// about to start at once; then let go, so that they all go on together, certainly overlapping in the database. On
/// SQLite it does nothing: the driver runs one write transaction at a time, so writes can only take turns there.
final class TableHolder: Sendable {
    enum Mode: String, Sendable {
        /// Nobody reads or writes the table.
        case accessExclusive = "ACCESS EXCLUSIVE"
        /// Others read it, and wait to write it.
        case share = "SHARE"

        /// The name `pg_locks` gives the mode.
        var lockName: String { rawValue.capitalized.replacingOccurrences(of: " ", with: "") + "Lock" }
    }

    let driver: any DatabaseDriver
    let table: String
    let mode: Mode
    private let held = Gate()
    private let letGo = Gate()
    private let holding = Mutex<Task<Void, any Error>?>(nil)
    /// The holding transaction's server process.
    private let process = Mutex(0)

    init(driver: any DatabaseDriver, table: String, mode: Mode) {
        self.driver = driver
        self.table = table
        self.mode = mode
    }

    /// Returns once the table is locked.
    func hold() async throws {
        guard driver.engine == .postgres else { return }
        let task = Task { [self] in
            defer { held.open() }
            try await driver.write { db in
                let pid = try await db.raw("SELECT pg_backend_pid() AS pid").first()!.decode(column: "pid", as: Int.self)
                self.process.withLock { $0 = pid }
                try await db.raw("LOCK TABLE \(unsafeRaw: self.table) IN \(unsafeRaw: self.mode.rawValue) MODE").run()
                self.held.open()
                await self.letGo.wait()
            }
        }
        holding.withLock { $0 = task }
        await held.wait()
        // (a transaction that could not lock the table has ended: its error is thrown here)
        if try await !isHeld() { try await task.value }
    }

    /// Waits until `count` transactions wait behind the table's lock (for it, or for a row a transaction that waits for
    /// it holds), then lets the table go.
    func release(onceWaiting count: Int) async throws {
        guard let task = holding.withLock({ $0 }) else { return }
        defer { letGo.open() }
        let (driver, table, holder) = (self.driver, self.table, process.withLock { $0 })
        try await pollUntil(
            "\(count) transactions wait behind the lock on \(table)", deadline: .seconds(60), every: .milliseconds(50)
        ) {
            try await driver.read { db in
                try await db.raw(
                    """
                    WITH RECURSIVE behind(pid) AS (
                        SELECT pid FROM pg_stat_activity WHERE \(bind: holder) = ANY(pg_blocking_pids(pid))
                        UNION
                        SELECT waiting.pid FROM pg_stat_activity waiting JOIN behind
                            ON behind.pid = ANY(pg_blocking_pids(waiting.pid)))
                    SELECT COUNT(*) AS n FROM behind
                    """
                ).first()!.decode(column: "n", as: Int.self) == count
            }
        }
        letGo.open()
        try await task.value
    }

    private func isHeld() async throws -> Bool {
        try await driver.read { [table, mode] db in
            try await db.raw(
                """
                SELECT COUNT(*) AS n FROM pg_locks
                WHERE relation = \(bind: table)::regclass AND mode = \(bind: mode.lockName) AND granted
                    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """
            ).first()!.decode(column: "n", as: Int.self) == 1
        }
    }
}
