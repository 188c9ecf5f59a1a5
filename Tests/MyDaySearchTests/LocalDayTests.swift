import Foundation
import Testing

@testable import MyDaySearch

struct LocalDayTests {
    @Test func daysBeforeYearOneFollowOnFromIt() {
        // Given the first days of the calendar
        let first = LocalDay(year: 1, month: 1, day: 1)
        let march = LocalDay(year: 1, month: 3, day: 1)

        // Then counting back crosses into year 0 (1 BC, a leap year) and comes back to the same day
        #expect(first.adding(days: -7) == LocalDay(year: 0, month: 12, day: 25))
        #expect(march.adding(days: -364) == LocalDay(year: 0, month: 3, day: 2))
        #expect(march.adding(days: -366) == LocalDay(year: 0, month: 2, day: 29))
        #expect(first.adding(days: -1_000).adding(days: 1_000) == first)
        #expect(first.adding(days: -7) < first)
        #expect(march.adding(days: -364).description == "0000-03-02")
        #expect(first.adding(days: -7).isoWeekday == first.isoWeekday)
    }

    @Test func daysOfOurTimeAreUnchanged() {
        let day = LocalDay(year: 2026, month: 3, day: 18)
        #expect(day.adding(days: -18) == LocalDay(year: 2026, month: 2, day: 28))
        #expect(day.adding(days: 300).description == "2027-01-12")
        #expect(day.isoWeekday == 3)
        #expect(LocalDay(Date(timeIntervalSince1970: 0), in: .gmt) == LocalDay(year: 1970, month: 1, day: 1))
    }
}
