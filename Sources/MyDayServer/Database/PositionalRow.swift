import PostgresNIO
import SQLKit
import SQLiteNIO

/// A row read by position, its columns in the order the statement selected them, without SQLKit's decoders: the
/// reads every list and search makes (ADR 0026, ADR 0028).
protocol PositionalRow: Sendable {
    var columnCount: Int { get }
    func isNull(_ index: Int) -> Bool
    func text(_ index: Int) throws -> String
    func integer(_ index: Int) throws -> Int
    func double(_ index: Int) throws -> Double
}

extension PositionalRow {
    func optionalText(_ index: Int) throws -> String? { isNull(index) ? nil : try text(index) }
    func optionalInteger(_ index: Int) throws -> Int? { isNull(index) ? nil : try integer(index) }
}

/// A driver that reads rows by position.
protocol PositionalRowReading {
    associatedtype Row: PositionalRow
    func positionalRows(_ query: SQLQueryString) async throws -> [Row]
}

extension PositionalRowReading {
    func readEntries(_ query: SQLQueryString) async throws -> [EntryRecord] {
        try await positionalRows(query).map(EntryRecord.init(positional:))
    }

    func readIntegers(_ query: SQLQueryString) async throws -> [[Int]] {
        try await positionalRows(query).map { row in try (0..<row.columnCount).map(row.integer) }
    }

    func readSearchProbe(_ query: SQLQueryString) async throws -> SearchProbe {
        var probe = SearchProbe()
        for row in try await positionalRows(query) {
            guard row.columnCount == 5 else { throw PositionalRowError("a search probe's row has \(row.columnCount) columns") }
            probe.add(
                part: try row.integer(0), number: try row.integer(1), score: try row.double(2),
                createdAt: try row.integer(3), id: try row.text(4))
        }
        return probe
    }
}

/// A row SQLKit read (writes' `RETURNING`, the stores' other reads), by position through its column names.
struct SQLKitRow: PositionalRow {
    let row: any SQLRow
    let names: [String]

    init(_ row: any SQLRow) {
        self.row = row
        names = row.allColumns
    }

    var columnCount: Int { names.count }
    func isNull(_ index: Int) -> Bool { (try? row.decodeNil(column: names[index])) ?? true }
    func text(_ index: Int) throws -> String { try row.decode(column: names[index], as: String.self) }
    func integer(_ index: Int) throws -> Int { try row.decode(column: names[index], as: Int.self) }
    func double(_ index: Int) throws -> Double { try row.decode(column: names[index], as: Double.self) }
}

/// A SQLite row's values.
struct SQLiteValues: PositionalRow {
    let values: [SQLiteData]

    var columnCount: Int { values.count }

    func isNull(_ index: Int) -> Bool { values[index] == .null }

    func text(_ index: Int) throws -> String {
        guard case .text(let text) = values[index] else { throw PositionalRowError("column \(index) is not text") }
        return text
    }

    func integer(_ index: Int) throws -> Int {
        switch values[index] {
        case .integer(let value): return value
        case .float(let value) where value.rounded() == value: return Int(value)
        default: throw PositionalRowError("column \(index) is not an integer")
        }
    }

    func double(_ index: Int) throws -> Double {
        switch values[index] {
        case .float(let value): return value
        case .integer(let value): return Double(value)
        default: throw PositionalRowError("column \(index) is not a number")
        }
    }
}

/// A PostgreSQL row's cells, decoded by PostgresNIO's own types.
struct PostgresCells: PositionalRow {
    let row: PostgresRandomAccessRow

    var columnCount: Int { row.count }

    func isNull(_ index: Int) -> Bool { row[index].bytes == nil }
    func text(_ index: Int) throws -> String { try row[index].decode(String.self) }
    func integer(_ index: Int) throws -> Int { try row[index].decode(Int.self) }
    func double(_ index: Int) throws -> Double { try row[index].decode(Double.self) }
}

/// A row that is not what its statement should select.
struct PositionalRowError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
