import Foundation

/// A calendar day where an entry was recorded, in the entry's own time zone. Years are counted as ISO 8601 counts
/// them, with a year 0 (1 BC) before year 1, so that days before year 1 still follow on from it.
public struct LocalDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        let parts = Self.calendar(timeZone).dateComponents([.era, .year, .month, .day], from: date)
        self.init(year: parts.era == 0 ? 1 - parts.year! : parts.year!, month: parts.month!, day: parts.day!)
    }

    /// `YYYY-MM-DD`; nil for anything else or a day that does not exist.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...9999).contains(year), (1...12).contains(month)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day)
        components.calendar = Self.calendar(.gmt)
        guard (1...31).contains(day), components.isValidDate else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `yyyymmdd` as one number, the form the database keeps and compares.
    public var number: Int { year * 10_000 + month * 100 + day }

    public init(number: Int) { self.init(year: number / 10_000, month: number / 100 % 100, day: number % 100) }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.number < rhs.number }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDay {
        let calendar = Self.calendar(.gmt)
        return LocalDay(calendar.date(byAdding: .day, value: days, to: calendar.date(from: components)!)!, in: .gmt)
    }

    /// Monday = 1 … Sunday = 7.
    public var isoWeekday: Int {
        let calendar = Self.calendar(.gmt)
        let weekday = calendar.component(.weekday, from: calendar.date(from: components)!)
        return (weekday + 5) % 7 + 1
    }

    /// 28 to 31.
    public static func daysIn(month: Int, year: Int) -> Int {
        let calendar = calendar(.gmt)
        let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
        return calendar.range(of: .day, in: .month, for: first)!.count
    }

    /// The day as the Gregorian calendar's components: years up to 0 are years of the era before.
    private var components: DateComponents {
        year > 0
            ? DateComponents(era: 1, year: year, month: month, day: day)
            : DateComponents(era: 0, year: 1 - year, month: month, day: day)
    }

    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

/// Days from `from` to `to`, both included.
public struct LocalDayRange: Sendable, Hashable {
    public let from: LocalDay
    public let to: LocalDay

    public init(from: LocalDay, to: LocalDay) {
        self.from = from
        self.to = to
    }

    public func contains(_ day: LocalDay) -> Bool { from <= day && day <= to }
}
