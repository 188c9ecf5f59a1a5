import MyDaySearch

/// The days "On this day" looks back to from a date: a week, a month and each year before.
enum OnThisDay {
    enum Unit: String, Sendable {
        case week, month, year
    }

    /// Days a given span before the date; usually one, two on 28 February of a year without a 29th (when the
    /// leap years' 29 February comes back), none on 29 February for a year without one.
    struct Lookback: Sendable, Equatable {
        let unit: Unit
        let count: Int
        let days: [LocalDay]
    }

    /// The most years looked back: a lifetime's diary, and a bound on what a far-off date asks of the database.
    static let mostYears = 150

    /// Nearest first: a week, a month, then each year back to `earliestYear`, at most `mostYears`.
    static func lookbacks(before date: LocalDay, earliestYear: Int) -> [Lookback] {
        var found = [
            Lookback(unit: .week, count: 1, days: [date.adding(days: -7)]),
            Lookback(unit: .month, count: 1, days: [monthBefore(date)]),
        ]
        var year = date.year - 1
        while year >= max(earliestYear, date.year - mostYears) {
            found.append(Lookback(unit: .year, count: date.year - year, days: sameDate(as: date, in: year)))
            year -= 1
        }
        return found.filter { !$0.days.isEmpty }
    }

    /// The same day of the month before, or that month's last day when it is shorter.
    static func monthBefore(_ date: LocalDay) -> LocalDay {
        let (year, month) = date.month == 1 ? (date.year - 1, 12) : (date.year, date.month - 1)
        return LocalDay(year: year, month: month, day: min(date.day, LocalDay.daysIn(month: month, year: year)))
    }

    private static func sameDate(as date: LocalDay, in year: Int) -> [LocalDay] {
        let leap = LocalDay.daysIn(month: 2, year: year) == 29
        switch (date.month, date.day) {
        case (2, 29):
            return leap ? [LocalDay(year: year, month: 2, day: 29)] : []
        case (2, 28) where LocalDay.daysIn(month: 2, year: date.year) == 28 && leap:
            return [LocalDay(year: year, month: 2, day: 28), LocalDay(year: year, month: 2, day: 29)]
        default:
            return [LocalDay(year: year, month: date.month, day: date.day)]
        }
    }
}
