import Dispatch
import Foundation
import NIOCore
import NIOPosix
import SQLiteNIO
import Synchronization
import VaporCSQLite

/// Read connections used through SQLite's C interface on threads of their own, each keeping its prepared statements:
/// the reads every list, search and token check makes skip preparing each statement anew and building rows with
/// column names, which SQLiteNIO does for every query (ADR 0028). The same SQLite library as SQLiteNIO's.
final class SQLiteReadConnections: Sendable {
    private let threadPool: NIOThreadPool
    private let idle: Mutex<[SQLiteReadConnection]>
    private let watchdog: ReadWatchdog

    /// Each read may run `timeLimit`; one that runs longer is interrupted and throws `ReadTookTooLong`.
    init(path: String, count: Int, timeLimit: Duration) async throws {
        let threadPool = NIOThreadPool(numberOfThreads: count)
        threadPool.start()
        let limit =
            UInt64(timeLimit.components.seconds) * 1_000_000_000 + UInt64(timeLimit.components.attoseconds / 1_000_000_000)
        do {
            let connections = try await threadPool.runIfActive {
                var opened: [SQLiteReadConnection] = []
                do {
                    for _ in 0..<count { opened.append(try SQLiteReadConnection(path: path, timeLimitNanoseconds: limit)) }
                } catch {
                    for connection in opened { connection.close() }
                    throw error
                }
                return opened
            }
            self.threadPool = threadPool
            idle = Mutex(connections)
            watchdog = ReadWatchdog(connections)
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
    }

    /// Runs one statement and answers its rows, each row's values in the order selected.
    func rows(_ sql: String, _ binds: [SQLiteData]) async throws -> [[SQLiteData]] {
        try await threadPool.runIfActive { [self] in
            // As many connections as threads, so one is always free here.
            guard let connection = idle.withLock({ $0.popLast() }) else {
                throw SQLiteReadError("no read connection is free")
            }
            defer { idle.withLock { $0.append(connection) } }
            return try connection.rows(sql, binds)
        }
    }

    /// Closes every connection; nothing may be read afterwards.
    func shutdown() async {
        watchdog.stop()
        _ = try? await threadPool.runIfActive { [self] in
            idle.withLock { connections in
                for connection in connections { connection.close() }
                connections.removeAll()
            }
        }
        try? await threadPool.shutdownGracefully()
    }
}

/// One SQLite connection that only reads, with the statements it has prepared. Used by one thread at a time: the
/// pool hands it out and takes it back.
private final class SQLiteReadConnection: @unchecked Sendable {
    /// More distinct statements than this (searches with many filters, pages deep in a list) start the cache afresh.
    private static let keptStatements = 64
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private let timeLimitNanoseconds: UInt64
    /// When the statement under way must stop (`DispatchTime`'s nanoseconds); 0 while none runs. Set by the reading
    /// thread, looked at by the watchdog's, under the lock, so an interruption never reaches a later statement.
    private let deadline = Mutex<UInt64>(0)

    init(path: String, timeLimitNanoseconds: UInt64) throws {
        self.timeLimitNanoseconds = timeLimitNanoseconds
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        guard sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, handle != nil else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite_nio_sqlite3_close(handle)
            throw SQLiteReadError("cannot open \(path): \(message)")
        }
        do {
            for pragma in ["PRAGMA busy_timeout = 10000", "PRAGMA query_only = ON"] {
                _ = try rows(pragma, [])
            }

        } catch {
            close()
            throw error
        }
    }

    func rows(_ sql: String, _ binds: [SQLiteData]) throws -> [[SQLiteData]] {
        let statement = try prepared(sql)
        // Reset at once, so that no read stays open and holds back the write-ahead log's checkpoints. Every parameter
        // is bound anew each time (the text fixes how many there are); clearing them would make SQLite prepare the
        // statement again.
        deadline.withLock { $0 = DispatchTime.now().uptimeNanoseconds + timeLimitNanoseconds }
        defer {
            deadline.withLock { $0 = 0 }
            sqlite_nio_sqlite3_reset(statement)
        }
        for (offset, value) in binds.enumerated() {
            try check(bind(value, at: Int32(offset + 1), in: statement))
        }
        let columns = sqlite_nio_sqlite3_column_count(statement)
        var rows: [[SQLiteData]] = []
        while true {
            let result = sqlite_nio_sqlite3_step(statement)
            if result == SQLITE_DONE { return rows }
            if result == SQLITE_INTERRUPT { throw ReadTookTooLong() }
            guard result == SQLITE_ROW else { throw failure() }
            var row: [SQLiteData] = []
            row.reserveCapacity(Int(columns))
            for column in 0..<columns { row.append(value(of: statement, at: column)) }
            rows.append(row)
        }
    }

    /// Interrupts the statement under way if it has run past its deadline (called from the watchdog's thread).
    fileprivate func interruptIfOverdue(now: UInt64) {
        deadline.withLock { deadline in
            guard deadline != 0, now > deadline, let handle else { return }
            sqlite_nio_sqlite3_interrupt(handle)
            deadline = 0
        }
    }

    func close() {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements.removeAll()
        deadline.withLock { _ in
            sqlite_nio_sqlite3_close(handle)
            handle = nil
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        if statements.count >= Self.keptStatements {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
            statements.removeAll()
        }
        var statement: OpaquePointer?
        try check(sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        guard let statement else { throw SQLiteReadError("'\(sql)' holds no statement") }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteData, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let number): return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
        case .float(let number): return sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .null: return sqlite_nio_sqlite3_bind_null(statement, index)
        case .text(var text):
            // With its length, so that a NUL inside the text is kept; an empty text is "", never NULL.
            return text.withUTF8 { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite_nio_sqlite3_bind_text(statement, index, "", 0, transient)
                }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                    sqlite_nio_sqlite3_bind_text64(
                        statement, index, characters, UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let buffer):
            return buffer.withUnsafeReadableBytes { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite_nio_sqlite3_bind_zeroblob(statement, index, 0)
                }
                return sqlite_nio_sqlite3_bind_blob64(statement, index, start, UInt64(bytes.count), transient)
            }
        }
    }

    private func value(of statement: OpaquePointer, at column: Int32) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_NULL: return .null
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        default:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite_nio_sqlite3_column_blob(statement, column) else { return .blob(ByteBuffer()) }
            return .blob(ByteBuffer(bytes: UnsafeRawBufferPointer(start: bytes, count: count)))
        }
    }

    private func check(_ result: Int32) throws {
        guard result == SQLITE_OK else { throw failure() }
    }

    private func failure() -> SQLiteReadError {
        SQLiteReadError(handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "the connection is closed")
    }
}

/// A thread of its own that looks at the read connections every 20 ms and interrupts a statement past its deadline
/// (SQLiteNIO's SQLite is built without progress callbacks, so the clock is watched from outside).
private final class ReadWatchdog: Sendable {
    private let stopped = Atomic<Bool>(false)

    init(_ connections: [SQLiteReadConnection]) {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                usleep(20_000)
                let now = DispatchTime.now().uptimeNanoseconds
                for connection in connections { connection.interruptIfOverdue(now: now) }
            }
        }
        thread.name = "myday-sqlite-read-watchdog"
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }
}

/// SQLite's own C value for "copy what is bound before the call returns".
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A read that SQLite refused, with SQLite's message.
struct SQLiteReadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
