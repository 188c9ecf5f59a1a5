import Logging
import SQLKit
import ServiceLifecycle

/// Keeps the embedded database's full-text indexes in one segment each. Every write adds a small segment that FTS5
/// merges only now and then, and a query seeks its words in every segment: after 10,000 single-entry writes a search
/// read its matches a third slower than from one merged segment. So when a quiet moment follows enough writes (at
/// least 100, and a quarter of the index's pages: a merge rewrites the whole index), the segments are merged, a few
/// hundred pages per transaction so that other writes go on between them. ADR 0025.
struct SearchIndexCompaction: Service {
    let driver: SQLiteDriver
    let logger: Logger
    /// How often the writes are looked at; a quiet moment is one such interval without a write of entries.
    var interval: Duration = .seconds(5)
    /// The fewest writes of entries a merge follows (and at least a quarter of the index's pages).
    var minimumWrites = 100

    /// Writes seen at the last look and at the last compaction.
    private var lastSeen: Int
    private var lastCompacted: Int

    init(driver: SQLiteDriver, logger: Logger, interval: Duration = .seconds(5), minimumWrites: Int = 100) {
        self.driver = driver
        self.logger = logger
        self.interval = interval
        self.minimumWrites = minimumWrites
        lastSeen = driver.indexWriteCount
        lastCompacted = driver.indexWriteCount
    }

    func run() async throws {
        // A graceful shutdown cancels the wait (and a merge under way, between two of its transactions).
        try? await cancelWhenGracefulShutdown {
            var compaction = self
            while true {
                try await Task.sleep(for: interval)
                do {
                    try await compaction.look()
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("merging the search index failed; a later look tries again", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Merges the indexes when no write came since the last look and enough came since the last merge; answers how
    /// many transactions the merge took, nil when none was due.
    @discardableResult
    mutating func look() async throws -> Int? {
        let writes = driver.indexWriteCount
        defer { lastSeen = writes }
        guard writes == lastSeen, writes - lastCompacted >= minimumWrites else { return nil }
        let pages = try await driver.read { db in
            try await db.raw("SELECT count(*) AS pages FROM entries_search_data").first()?.decode(column: "pages", as: Int.self)
        }
        guard writes - lastCompacted >= (pages ?? 0) / 4 else { return nil }
        let rounds = try await Self.merge(driver)
        lastCompacted = writes
        logger.info("search index merged", metadata: ["transactions": "\(rounds)", "pages": "\(pages ?? 0)"])
        return rounds
    }

    /// Merges each index into one segment, 500 pages per transaction; answers how many transactions changed anything.
    static func merge(_ driver: SQLiteDriver) async throws -> Int {
        var rounds = 0
        for table in ["entries_search", "entries_labels"] {
            while true {
                try Task.checkCancellation()
                // A negative amount merges segments of every level, as few as two; under two changes, nothing was left.
                let changes = try await driver.write { db in
                    let before = try await totalChanges(db)
                    try await db.raw("INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: table), rank) VALUES ('merge', -500)").run()
                    return try await totalChanges(db) - before
                }
                if changes < 2 { break }
                rounds += 1
            }
        }
        return rounds
    }

    private static func totalChanges(_ db: any SQLDatabase) async throws -> Int {
        try await db.raw("SELECT total_changes() AS changes").first()?.decode(column: "changes", as: Int.self) ?? 0
    }
}
