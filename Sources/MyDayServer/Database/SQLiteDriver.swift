import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// The embedded default: one SQLite file in WAL mode, one writer at a time and a few readers beside it.
final class SQLiteDriver: DatabaseDriver, PositionalRowReading {
    let engine = SQLEngine.sqlite
    /// A thread for each connection (ADR 0047): a statement waiting for another connection's lock holds its thread for
    /// up to the busy timeout, which on threads shared with others (SQLiteNIO's default) can hold up the very
    /// connection it waits for, and everything else those threads serve.
    private let threads: NIOThreadPool
    private let writer: SQLiteConnection
    private let readers: [SQLiteConnection]
    /// The positional reads (lists, searches, the account check), through SQLite's C interface.
    private let hotReaders: SQLiteReadConnections
    private let nextReader = Atomic<Int>(0)
    private let indexWrites = Atomic<Int>(0)
    private let writeLock = AsyncLock()
    private let scrubPending = Atomic<Bool>(false)

    /// `readTimeLimit` bounds each positional read (lists, searches, account checks): one that runs longer is stopped
    /// and throws `ReadTookTooLong`. `lockWait` is how long a statement waits for another connection's lock.
    init(
        path: String, readerCount: Int = 4, readTimeLimit: Duration = .seconds(3), lockWait: Duration = .seconds(10),
        logger: Logger
    ) async throws {
        let busyTimeout = "PRAGMA busy_timeout = \(lockWait.milliseconds)"
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .notice)
        let threads = NIOThreadPool(numberOfThreads: 1 + readerCount)
        threads.start()
        func open() async throws -> SQLiteConnection {
            try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threads, logger: quiet, on: MultiThreadedEventLoopGroup.singleton.any())
        }
        var opened: [SQLiteConnection] = []
        do {
            let writer = try await open()
            opened.append(writer)
            // WAL lets readers run beside the writer; FULL sync makes a commit survive power loss. Deleted content is
            // overwritten with zeros, and the log is cut back to 64 MiB after each checkpoint.
            for pragma in [
                busyTimeout, "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
                "PRAGMA foreign_keys = ON", "PRAGMA secure_delete = ON", "PRAGMA journal_size_limit = 67108864",
            ] {
                try await writer.sql().raw(SQLQueryString(pragma)).run()
            }
            for _ in 0..<readerCount {
                let reader = try await open()
                opened.append(reader)
                try await reader.sql().raw(SQLQueryString(busyTimeout)).run()
            }
            hotReaders = try await SQLiteReadConnections(path: path, count: readerCount, timeLimit: readTimeLimit)
        } catch {
            for connection in opened { try? await connection.close() }
            try? await threads.shutdownGracefully()
            throw error
        }
        self.threads = threads
        writer = opened[0]
        readers = Array(opened.dropFirst())
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
        return try await body(readers[index % readers.count].sql())
    }

    func positionalRows(_ query: SQLQueryString) async throws -> [SQLiteValues] {
        var serializer = SQLSerializer(database: writer.sql())
        query.serialize(to: &serializer)
        let encoder = SQLiteDataEncoder()
        let binds = try serializer.binds.map { try encoder.encode($0) }
        return try await hotReaders.rows(serializer.sql, binds).map(SQLiteValues.init(values:))
    }

    /// Counts a committed write that may have changed the search index (`SearchIndexCompaction` looks at the count).
    func noteIndexWrite() { indexWrites.add(1, ordering: .relaxed) }

    /// Writes this process has committed that may have changed the search index.
    var indexWriteCount: Int { indexWrites.load(ordering: .relaxed) }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writeLock.withLock {
            let db = writer.sql()
            try await db.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(db)
                try await db.raw("COMMIT").run()
                if scrubPending.exchange(false, ordering: .relaxed) { await truncateLog(db) }
                return result
            } catch {
                // Unstructured, so that it runs when this task was cancelled too (SQLiteNIO skips a cancelled task's
                // statements): a transaction left open would refuse every later write of the process.
                await Task { try? await db.raw("ROLLBACK").run() }.value
                throw error
            }
        }
    }

    func scrubAfterCommit() { scrubPending.store(true, ordering: .relaxed) }

    /// Checkpoints the whole log into the database and truncates it. A reader in the way makes SQLite give up after the
    /// busy timeout: then the next write tries again.
    private func truncateLog(_ db: any SQLDatabase) async {
        let busy = try? await db.raw("PRAGMA wal_checkpoint(TRUNCATE)").first()?.decode(column: "busy", as: Int.self)
        if busy != 0 { scrubPending.store(true, ordering: .relaxed) }
    }

    func shutdown() async {
        let connections = readers + [writer]
        // Unstructured, so that closing also happens when the caller's task was cancelled.
        await Task { [hotReaders, threads] in
            await hotReaders.shutdown()
            for connection in connections { try? await connection.close() }
            try? await threads.shutdownGracefully()
        }.value
    }
}
