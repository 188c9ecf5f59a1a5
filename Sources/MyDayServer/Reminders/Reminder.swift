import Foundation
import MyDaySearch

/// A person's daily reminder: at `minuteOfDay` in `timeZone`, on `days`, when that local day has no entry yet.
struct Reminder: Sendable, Equatable {
    enum Weekday: String, Sendable, CaseIterable {
        case mon, tue, wed, thu, fri, sat, sun
    }

    let userID: UUID
    /// 0…1439: 21:00 is 1260.
    let minuteOfDay: Int
    /// The zone's name as the person gave it ("UTC" stays "UTC", where Foundation would say "GMT").
    let zoneName: String
    let days: Set<Weekday>
    /// By mail, to the account's confirmed address.
    let email: Bool
    /// The last local day it was sent (or skipped, the day having an entry); 0 before the first.
    var lastDay: Int = 0

    /// A reminder is sent within this long after its time, never later: a server that was down at 21:00 does not
    /// remind at 03:00. On the day clocks go forward past the time, it is sent at the first minute that exists.
    static let window = 60

    var timeZone: TimeZone { TimeZone(identifier: zoneName) ?? .gmt }

    /// `HH:MM` of `minuteOfDay`.
    var time: String { String(format: "%02d:%02d", minuteOfDay / 60, minuteOfDay % 60) }

    /// The local day it is due on at `now`, or nil when it is not due.
    func dueDay(at now: Date) -> LocalDay? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: now)
        let day = LocalDay(year: parts.year!, month: parts.month!, day: parts.day!)
        // Calendar's weekday: Sunday = 1 … Saturday = 7.
        let weekday = Weekday.allCases[(parts.weekday! + 5) % 7]
        guard days.contains(weekday), day.number > lastDay, let due = dueMoment(on: parts, in: calendar), now >= due,
            now < due.addingTimeInterval(TimeInterval(Self.window * 60))
        else { return nil }
        return day
    }

    /// When the local clock first shows `minuteOfDay` or later on the day of `parts`: that minute, or the end of the
    /// gap when clocks go forward over it (Foundation moves a skipped time on by the gap's length: 02:30 to 03:30).
    private func dueMoment(on parts: DateComponents, in calendar: Calendar) -> Date? {
        let asked = DateComponents(
            year: parts.year, month: parts.month, day: parts.day, hour: minuteOfDay / 60, minute: minuteOfDay % 60)
        guard let moment = calendar.date(from: asked) else { return nil }
        let shown = calendar.dateComponents([.hour, .minute], from: moment)
        guard shown.hour! * 60 + shown.minute! != minuteOfDay,
            let gapEnd = timeZone.nextDaylightSavingTimeTransition(after: moment.addingTimeInterval(-3 * 3600)), gapEnd <= moment
        else { return moment }
        return gapEnd
    }

    /// `HH:MM` as a minute of the day; nil for anything else.
    static func minute(of text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.count == 5, parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour),
            (0...59).contains(minute), parts.allSatisfy({ $0.count == 2 })
        else { return nil }
        return hour * 60 + minute
    }

    /// Days as stored: a bit each, Monday the lowest.
    static func bits(_ days: Set<Weekday>) -> Int {
        Weekday.allCases.enumerated().reduce(0) { bits, pair in days.contains(pair.element) ? bits | (1 << pair.offset) : bits }
    }

    static func days(bits: Int) -> Set<Weekday> {
        Set(Weekday.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
    }
}
