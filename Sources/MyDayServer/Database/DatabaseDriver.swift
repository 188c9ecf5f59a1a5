import Foundation
import Logging
import SQLKit

/// The SQL engine under the server's stores. The same queries run on both.
package enum SQLEngine: String, Sendable {
    case sqlite
    case postgres
}

/// A connection source for the stores: reads, and writes that run as one transaction.
package protocol DatabaseDriver: Sendable {
    var engine: SQLEngine { get }
    /// Runs `body` with a database suitable for reading; it may run beside writes.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `body` inside one transaction: every statement commits together, or none does.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs statements each atomic by itself, outside a transaction, for bookkeeping a crash may lose at no cost
    /// (rate-limit schedules): PostgreSQL neither opens a transaction nor waits for the log to reach the disk.
    func writeBookkeeping<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Closes every connection; nothing may be run afterwards.
    func shutdown() async
    /// Asks that once the current write commits, no file keeps a copy of what it deleted: SQLite copies its
    /// write-ahead log into the database (whose freed pages are zeroed) and truncates the log. PostgreSQL keeps dead
    /// rows until VACUUM whatever is asked (the README says so).
    func scrubAfterCommit()
}

extension DatabaseDriver {
    func scrubAfterCommit() {}

    func writeBookkeeping<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await write(body)
    }
}

/// How many entries a search matches (counted up to a bound), and its matches in titles and tags with their rank.
struct SearchProbe: Sendable {
    struct Match: Sendable {
        let id: String
        /// Arrival order on SQLite (the greater the newer); 0 on PostgreSQL.
        let recency: Int
        /// The lower the better.
        let score: Double
        let createdAt: Int

        /// Best first, then newest by recording time and id, as the ranked `ORDER BY` has them.
        static func isBetter(_ a: Match, _ b: Match) -> Bool {
            (a.score, b.createdAt, b.id) < (b.score, a.createdAt, a.id)
        }

        /// Newest first: by arrival, then by recording time and id.
        static func isNewer(_ a: Match, _ b: Match) -> Bool {
            (a.recency, a.createdAt, a.id) > (b.recency, b.createdAt, b.id)
        }
    }

    var matches = 0
    var labelled: [Match] = []

    /// Adds one row of a probe's statement: (0, count, …) for the count, (1, recency, score, created_at, id) for a
    /// match; rows come in no particular order.
    mutating func add(part: Int, number: Int, score: Double, createdAt: Int, id: String) {
        if part == 0 {
            matches = number
        } else {
            labelled.append(Match(id: id, recency: number, score: score, createdAt: createdAt))
        }
    }
}

extension DatabaseDriver {
    /// Runs a read that selects `EntryRecord.columns`, in that order, and answers the entries.
    func readEntries(_ query: SQLQueryString) async throws -> [EntryRecord] {
        try await positional.readEntries(query)
    }

    /// Runs a read that selects whole numbers only (none NULL) and answers each row's, in the order selected.
    func readIntegers(_ query: SQLQueryString) async throws -> [[Int]] {
        try await positional.readIntegers(query)
    }

    /// Runs a search's probe, whose rows are (part, number, score, created, id) as `SearchProbe.add` reads them.
    func readSearchProbe(_ query: SQLQueryString) async throws -> SearchProbe {
        try await positional.readSearchProbe(query)
    }

    /// Both drivers read rows by position (`PositionalRowReading`).
    private var positional: any PositionalRowReading {
        guard let reader = self as? any PositionalRowReading else {
            preconditionFailure("\(type(of: self)) reads no rows by position")
        }
        return reader
    }
}

/// A read of the list, a search or an account check ran past the configured time limit and was stopped.
struct ReadTookTooLong: Error, Equatable {}

/// Chooses the driver the configuration asks for.
package enum DatabaseDriverFactory {
    /// PostgreSQL when `MYDAY_DATABASE_URL` is set, else the SQLite file in the data directory.
    package static func open(configuration: ServerConfiguration, logger: Logger) async throws -> any DatabaseDriver {
        if let url = configuration.databaseURL {
            return try PostgresDriver(url: url, readTimeLimit: configuration.readTimeLimit, logger: logger)
        }
        try configuration.createDataDirectory()
        return try await SQLiteDriver(
            path: configuration.sqliteFile.path, readTimeLimit: configuration.readTimeLimit,
            lockWait: configuration.sqliteLockWait, logger: logger)
    }

    /// Opens the database and hands it to `body`, which keeps it open by what it returns; if `body` throws, the
    /// database is shut down before the error goes on.
    static func withOpenDriver<T>(
        configuration: ServerConfiguration, logger: Logger, _ body: (any DatabaseDriver) async throws -> T
    ) async throws -> T {
        let driver = try await open(configuration: configuration, logger: logger)
        do {
            return try await body(driver)
        } catch {
            await driver.shutdown()
            throw error
        }
    }

    /// Opens the database for `body` alone and shuts it down afterwards, whatever happens.
    package static func withDriver<T>(
        configuration: ServerConfiguration, logger: Logger, _ body: (any DatabaseDriver) async throws -> T
    ) async throws -> T {
        try await withOpenDriver(configuration: configuration, logger: logger) { driver in
            let result = try await body(driver)
            await driver.shutdown()
            return result
        }
    }
}
