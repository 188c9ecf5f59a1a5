import Foundation
import MyDayModels
import MyDaySearch
import Observation

/// Insights: a year's calendar of days with entries, minutes recorded per week, mood over time and the people, places
/// and topics mentioned most; every figure also as words, for VoiceOver and for anyone who does not read colour.
@MainActor
@Observable
public final class InsightsViewModel {
    /// A day of the calendar; `level` 0 (no entry) to 3 (three or more).
    public struct CalendarDay: Sendable, Equatable, Identifiable {
        public let date: String
        public let entries: Int
        public let level: Int
        public let accessibilityLabel: String
        public var id: String { date }
    }

    /// Minutes recorded in the week that starts on `monday`.
    public struct Week: Sendable, Equatable, Identifiable {
        public let monday: String
        public let minutes: Double
        public var id: String { monday }
    }

    public private(set) var insights: Insights?
    public private(set) var errorMessage: String?

    private let core: ClientCore
    private let timeZone: TimeZone

    public init(core: ClientCore, timeZone: TimeZone = .current) {
        self.core = core
        self.timeZone = timeZone
    }

    /// Loads the last 365 days.
    public func load() async {
        do {
            insights = try await core.client.insights(from: nil, to: nil, timeZone: timeZone.identifier)
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// "Current streak: 3 days · longest: 12 days".
    public var streakSummary: String {
        guard let insights else { return "" }
        func days(_ count: Int) -> String { counted(count, "day", "days") }
        return "Current streak: \(days(insights.currentStreak)) · longest: \(days(insights.longestStreak))"
    }

    /// Columns of seven days, Monday first, from the Monday on or before `from` to `to`; days outside the span are
    /// left out of their column.
    public var calendar: [[CalendarDay]] {
        guard let insights, let from = LocalDay(iso: insights.from), let to = LocalDay(iso: insights.to) else { return [] }
        let byDate = Dictionary(uniqueKeysWithValues: insights.days.map { ($0.date, $0) })
        var columns: [[CalendarDay]] = []
        var day = Self.monday(onOrBefore: from)
        while day <= to {
            var column: [CalendarDay] = []
            for offset in 0..<7 {
                let date = day.adding(days: offset)
                guard from <= date, date <= to else { continue }
                let found = byDate[date.description]
                column.append(
                    CalendarDay(
                        date: date.description, entries: found?.entries ?? 0, level: min(found?.entries ?? 0, 3),
                        accessibilityLabel: Self.label(of: date, found)))
            }
            columns.append(column)
            day = day.adding(days: 7)
        }
        return columns
    }

    /// Every week of the span, oldest first, with the minutes recorded in it (0 for a week without recordings).
    public var weeks: [Week] {
        guard let insights, let from = LocalDay(iso: insights.from), let to = LocalDay(iso: insights.to) else { return [] }
        var seconds: [LocalDay: Double] = [:]
        for day in insights.days {
            guard let date = LocalDay(iso: day.date) else { continue }
            seconds[Self.monday(onOrBefore: date), default: 0] += day.seconds
        }
        var weeks: [Week] = []
        var monday = Self.monday(onOrBefore: from)
        while monday <= to {
            weeks.append(Week(monday: monday.description, minutes: (seconds[monday] ?? 0) / 60))
            monday = monday.adding(days: 7)
        }
        return weeks
    }

    /// The days with a mood, oldest first.
    public var moods: [(date: String, mood: Int)] {
        insights?.days.compactMap { day in day.mood.map { (day.date, $0) } } ?? []
    }

    /// "12 March 2026: 2 entries, 4 minutes recorded, mood 4 of 5"; "12 March 2026: no entry".
    nonisolated static func label(of date: LocalDay, _ day: Insights.Day?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let noon = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
        let name = noon.formatted(
            Date.FormatStyle(date: .long, time: .omitted, locale: Locale(identifier: "en_GB"), timeZone: .gmt))
        guard let day, day.entries > 0 else { return "\(name): no entry" }
        var parts = [counted(day.entries, "entry", "entries")]
        let minutes = Int((day.seconds / 60).rounded())
        if day.seconds > 0 { parts.append(counted(minutes, "minute", "minutes") + " recorded") }
        if let mood = day.mood { parts.append("mood \(mood) of 5") }
        return "\(name): " + parts.joined(separator: ", ")
    }

    nonisolated static func monday(onOrBefore day: LocalDay) -> LocalDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
        let weekday = calendar.component(.weekday, from: date)  // Sunday = 1
        return day.adding(days: -((weekday + 5) % 7))
    }
}
