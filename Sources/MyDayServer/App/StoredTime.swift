import Foundation

/// Time as the database stores it: whole milliseconds since 1970, the same in both SQL engines.
enum StoredTime {
    static func now() -> Int { milliseconds(Date()) }
    static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(milliseconds: Int) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
