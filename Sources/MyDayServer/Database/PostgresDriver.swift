import Foundation
import Logging
import MyDayModels
import PostgresKit
import PostgresNIO
import SQLKit
import Synchronization

/// PostgreSQL through a connection pool, for many API nodes and workers sharing one database.
final class PostgresDriver: DatabaseDriver, PositionalRowReading {
    let engine = SQLEngine.postgres
    private let client: PostgresClient
    /// The positional reads (lists, searches, account checks), on connections whose statements stop at the time limit.
    private let hotClient: PostgresClient
    /// Bookkeeping writes (rate-limit schedules), on connections that do not wait for the log's flush.
    private let bookkeepingClient: PostgresClient
    private let runTask: Task<Void, Never>
    /// How long `shutdown` waits for the pools to close.
    private let closeLimit: Duration
    private let running: RunningPools
    private let logger: Logger

    /// `readTimeLimit` bounds each positional read (PostgreSQL's `statement_timeout` on their connections);
    /// `closeLimit` how long `shutdown` waits for the connections to close.
    init(url: String, readTimeLimit: Duration = .seconds(3), closeLimit: Duration = .seconds(10), logger: Logger) throws {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw ConfigurationError("MYDAY_DATABASE_URL must look like postgres://user:password@host:5432/database")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let requireTLS = components.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } ?? false
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding,
            database: database.isEmpty ? nil : database,
            tls: requireTLS ? .require(.makeClientConfiguration()) : .disable
        )
        configuration.options.maximumConnections = 16
        // No keep-alive queries: a pool that had run them sometimes never finished closing (ADR 0048). A connection
        // idle for a minute is closed anyway, and one the database closed leaves the pool when it closes.
        configuration.options.keepAliveBehavior = nil
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .notice)
        let client = PostgresClient(configuration: configuration, backgroundLogger: quiet)
        var hot = configuration
        hot.options.maximumConnections = 16
        hot.options.additionalStartupParameters = [("statement_timeout", "\(max(1, readTimeLimit.milliseconds))")]
        let hotClient = PostgresClient(configuration: hot, backgroundLogger: quiet)
        var bookkeeping = configuration
        bookkeeping.options.maximumConnections = 4
        bookkeeping.options.additionalStartupParameters = [("synchronous_commit", "off")]
        let bookkeepingClient = PostgresClient(configuration: bookkeeping, backgroundLogger: quiet)
        self.client = client
        self.hotClient = hotClient
        self.bookkeepingClient = bookkeepingClient
        self.logger = quiet
        self.closeLimit = closeLimit
        let running = RunningPools()
        self.running = running
        runTask = Task {
            await withDiscardingTaskGroup { group in
                for (name, pool) in [("writes", client), ("reads", hotClient), ("bookkeeping", bookkeepingClient)] {
                    running.names.withLock { _ = $0.insert(name) }
                    group.addTask {
                        await pool.run()
                        running.names.withLock { _ = $0.remove(name) }
                    }
                }
            }
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await body(connection.sql(queryLogLevel: nil))
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(connection.sql(queryLogLevel: nil))
            }
        } catch let error as PostgresTransactionError {
            // The stores' own errors (a taken email, say) reach their callers as themselves once rolled back.
            if let closureError = error.closureError, error.rollbackError == nil { throw closureError }
            throw error
        }
    }

    func writeBookkeeping<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await bookkeepingClient.withConnection { connection in
            try await body(connection.sql(queryLogLevel: nil))
        }
    }

    func positionalRows(_ query: SQLQueryString) async throws -> [PostgresCells] {
        do {
            return try await hotRows(query)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "57014" {
            throw ReadTookTooLong()
        }
    }

    /// The account check every authenticated request makes, as a statement prepared once per connection: PostgreSQL
    /// parses and plans it once, not on every request.
    func accountState(id: String) async throws -> (tokenVersion: Int, changeSeq: Int)? {
        do {
            var state: (tokenVersion: Int, changeSeq: Int)?
            for try await row in try await hotClient.execute(AccountStateStatement(id: id), logger: logger) { state = row }
            return state
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "57014" {
            throw ReadTookTooLong()
        }
    }

    private func hotRows(_ query: SQLQueryString) async throws -> [PostgresCells] {
        try await hotClient.withConnection { connection in
            var serializer = SQLSerializer(database: connection.sql(queryLogLevel: nil))
            query.serialize(to: &serializer)
            var bindings = PostgresBindings(capacity: serializer.binds.count)
            for bind in serializer.binds {
                switch bind {
                case let value as String: bindings.append(value)
                case let value as Int: bindings.append(value)
                case let value as Double: bindings.append(value)
                case let value as Bool: bindings.append(value)
                default: throw PositionalRowError("a bound \(type(of: bind)) is not read by position")
                }
            }
            let rows = try await connection.query(PostgresQuery(unsafeSQL: serializer.sql, binds: bindings), logger: logger)
            return try await rows.collect().map { PostgresCells(row: $0.makeRandomAccess()) }
        }
    }

    /// Closes every connection. A pool that has not closed within `closeLimit` is left to the process's end, with a
    /// warning naming it (ADR 0048): the services that used it have stopped, and the process stops too.
    func shutdown() async {
        runTask.cancel()
        guard await value(of: runTask, within: closeLimit) == nil else { return }
        logger.warning(
            "the database's connections did not close in time; the process leaves them open",
            metadata: ["pools": "\(running.names.withLock { $0.sorted() })", "limit": "\(closeLimit)"])
    }
}

/// The names of the pools whose `run` has not ended.
private final class RunningPools: Sendable {
    let names = Mutex<Set<String>>([])
}

/// An open account's token version and change sequence, by id.
private struct AccountStateStatement: PostgresPreparedStatement {
    static let sql = "SELECT token_version, change_seq FROM users WHERE id = $1 AND deleted_at IS NULL"
    typealias Row = (tokenVersion: Int, changeSeq: Int)
    let id: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(id)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (tokenVersion, changeSeq) = try row.decode((Int, Int).self)
        return (tokenVersion, changeSeq)
    }
}
