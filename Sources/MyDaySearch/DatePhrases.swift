import Foundation

/// Reads the date phrases people type into a search box ("yesterday", "last week", "in May", "in May 2024",
/// "this year", "last weekend", "3 days ago", "2 weeks ago", "on Sunday", "last Friday", "last May") as a range of
/// days, counted from `today`. Weeks start on Monday.
public struct DatePhrases: Sendable {
    public let today: LocalDay

    public init(today: LocalDay) { self.today = today }

    public init(now: Date, timeZone: TimeZone) { self.init(today: LocalDay(now, in: timeZone)) }

    /// The first date phrase in `words` (folded), as the range it means and how many words it takes from where.
    public func firstPhrase(in words: [String]) -> (range: LocalDayRange, at: Range<Int>)? {
        for start in words.indices {
            for length in [3, 2, 1] where start + length <= words.count {
                if let range = read(Array(words[start..<(start + length)])) { return (range, start..<(start + length)) }
            }
        }
        return nil
    }

    func read(_ words: [String]) -> LocalDayRange? {
        switch words {
        case ["today"]: return LocalDayRange(from: today, to: today)
        case ["yesterday"]:
            let day = today.adding(days: -1)
            return LocalDayRange(from: day, to: day)
        case ["this", "week"]: return week(startingBefore: 0)
        case ["last", "week"]: return week(startingBefore: 1)
        case ["this", "month"]: return month(today.month, of: today.year)
        case ["last", "month"]:
            return today.month == 1 ? month(12, of: today.year - 1) : month(today.month - 1, of: today.year)
        case ["this", "year"]: return year(today.year)
        case ["last", "year"]: return year(today.year - 1)
        case ["this", "weekend"]: return weekend(before: 0)
        case ["last", "weekend"]: return weekend(before: 1)
        case let phrase where phrase.count == 3 && phrase[2] == "ago":
            guard let count = Self.count(phrase[0]) else { return nil }
            switch (phrase[1], count) {
            case ("days", _), ("day", 1):
                let day = today.adding(days: -count)
                return LocalDayRange(from: day, to: day)
            case ("weeks", _), ("week", 1): return week(startingBefore: count)
            default: return nil
            }
        case let phrase where phrase.count == 2 && (phrase[0] == "on" || phrase[0] == "last"):
            if let weekday = Self.weekdays.firstIndex(of: phrase[1]) {
                // "on Sunday": the latest Sunday up to today; "last Sunday": the latest before today.
                var back = (today.isoWeekday - 1 - weekday + 7) % 7
                if back == 0 && phrase[0] == "last" { back = 7 }
                let day = today.adding(days: -back)
                return LocalDayRange(from: day, to: day)
            }
            // "last May": the latest May that has ended.
            guard phrase[0] == "last", let month = Self.month(named: phrase[1]) else { return nil }
            return self.month(month, of: month < today.month ? today.year : today.year - 1)
        case let phrase where phrase.count == 2 && phrase[0] == "in":
            if let month = Self.month(named: phrase[1]) {
                // The latest such month that has begun: "in May" in March means last year's May.
                return self.month(month, of: month <= today.month ? today.year : today.year - 1)
            }
            if let year = Self.year(phrase[1]) { return self.year(year) }
            return nil
        case let phrase where phrase.count == 3 && phrase[0] == "in":
            guard let month = Self.month(named: phrase[1]), let year = Self.year(phrase[2]) else { return nil }
            return self.month(month, of: year)
        default: return nil
        }
    }

    private func week(startingBefore weeks: Int) -> LocalDayRange {
        let monday = today.adding(days: -(today.isoWeekday - 1) - 7 * weeks)
        return LocalDayRange(from: monday, to: monday.adding(days: 6))
    }

    /// Saturday and Sunday of the week `weeks` before this one.
    private func weekend(before weeks: Int) -> LocalDayRange {
        let saturday = week(startingBefore: weeks).from.adding(days: 5)
        return LocalDayRange(from: saturday, to: saturday.adding(days: 1))
    }

    private func month(_ month: Int, of year: Int) -> LocalDayRange {
        LocalDayRange(
            from: LocalDay(year: year, month: month, day: 1),
            to: LocalDay(year: year, month: month, day: LocalDay.daysIn(month: month, year: year)))
    }

    private func year(_ year: Int) -> LocalDayRange {
        LocalDayRange(from: LocalDay(year: year, month: 1, day: 1), to: LocalDay(year: year, month: 12, day: 31))
    }

    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// Monday first, as `LocalDay.isoWeekday` counts.
    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    private static let counts = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// "3" or "three": 1 to 3660 ("a" is left alone: "a day ago" is rarely a search).
    private static func count(_ word: String) -> Int? {
        if let index = counts.firstIndex(of: word) { return index + 1 }
        guard word.count <= 4, word.allSatisfy(\.isASCII), let number = Int(word), (1...3660).contains(number) else {
            return nil
        }
        return number
    }

    static func month(named word: String) -> Int? {
        if let index = months.firstIndex(of: word) { return index + 1 }
        guard word.count == 3 || word == "sept", let index = months.firstIndex(where: { $0.hasPrefix(word) }) else {
            return nil
        }
        return index + 1
    }

    private static func year(_ word: String) -> Int? {
        guard word.count == 4, let year = Int(word), (1900...2999).contains(year) else { return nil }
        return year
    }
}
