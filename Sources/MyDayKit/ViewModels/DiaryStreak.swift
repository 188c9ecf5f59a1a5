import Foundation
import MyDaySearch

/// How many days in a row the diary has an entry, as the widgets show it: the run of days that ends on the newest day
/// with an entry, each entry counted on its own day (in the time zone it was made in). Saved by the app where the
/// widget extension reads it; what it shows is worked out at the moment shown (`shown(at:)`), so a widget stays right
/// past midnight without the app running.
public struct DiaryStreak: Sendable, Equatable, Codable {
    /// Days in the run that ends on `lastDay`.
    public var days: Int
    /// The newest day with an entry ("2026-11-27"), nil for an empty diary.
    public var lastDay: String?

    /// What a widget shows at a moment.
    public struct Shown: Sendable, Equatable {
        public var days: Int
        public var todayHasEntry: Bool

        public init(days: Int, todayHasEntry: Bool) {
            self.days = days
            self.todayHasEntry = todayHasEntry
        }
    }

    public init(days: Int, lastDay: String?) {
        self.days = days
        self.lastDay = lastDay
    }

    /// The streak of `entries` (any order).
    public static func of(_ entries: [LocalEntry]) -> DiaryStreak {
        let days = Set(entries.map { LocalDay($0.createdAt, in: TimeZone(identifier: $0.timeZone) ?? .current) })
        guard let last = days.max() else { return DiaryStreak(days: 0, lastDay: nil) }
        var count = 0
        while days.contains(last.adding(days: -count)) { count += 1 }
        return DiaryStreak(days: count, lastDay: last.description)
    }

    /// At `moment` in `timeZone`: the run goes on while its last day is today or yesterday (today may still get an
    /// entry), and is over (0) once a whole day was missed. A last day after today is an entry made today in a zone
    /// ahead of this one (recorded in Tokyo, shown after the flight to Los Angeles).
    public func shown(at moment: Date, timeZone: TimeZone = .current) -> Shown {
        let today = LocalDay(moment, in: timeZone)
        switch lastDay.flatMap(LocalDay.init(iso:)) {
        case let last? where last >= today: return Shown(days: days, todayHasEntry: true)
        case today.adding(days: -1): return Shown(days: days, todayHasEntry: false)
        default: return Shown(days: 0, todayHasEntry: false)
        }
    }

    private static let key = "diaryStreak"

    /// Saves the streak in `defaults` (the App Group's, which the widget extension reads).
    public func save(to defaults: UserDefaults) {
        defaults.set(try? JSONEncoder().encode(self), forKey: Self.key)
    }

    /// Takes it out of `defaults` when the session ends: a widget shows nothing of a diary nobody is signed in to.
    public static func forget(in defaults: UserDefaults) {
        defaults.removeObject(forKey: key)
    }

    /// The streak saved in `defaults`, if any.
    public static func saved(in defaults: UserDefaults) -> DiaryStreak? {
        defaults.data(forKey: key).flatMap { try? JSONDecoder().decode(DiaryStreak.self, from: $0) }
    }
}
