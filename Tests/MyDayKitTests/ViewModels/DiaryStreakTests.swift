import Foundation
import MyDayKit
import MyDayTestSupport
import Testing

@Suite struct DiaryStreakTests {
    let harness = CoreHarness()
    let paris = Given.paris
    /// 18 November 2026, 12:06 in Paris.
    let now = Given.now

    private func note(daysAgo: Double, hour offset: Double = 0, in zone: TimeZone? = nil) throws {
        try harness.store.noteWritten(
            "A note", at: now.addingTimeInterval(-daysAgo * 86_400 + offset * 3600), timeZone: zone ?? paris)
    }

    @Test func theRunEndsOnTheNewestDayAndLastsUntilADayIsMissed() throws {
        // Given entries today, yesterday (two), the day before, and five days ago
        for days in [0.0, 1, 1, 2, 5] { try note(daysAgo: days) }
        let streak = DiaryStreak.of(try harness.store.entries())
        // Then the run is three days, ending today
        #expect(streak == DiaryStreak(days: 3, lastDay: "2026-11-18"))
        #expect(streak.shown(at: now, timeZone: paris) == .init(days: 3, todayHasEntry: true))
        // And tomorrow it still shows, waiting for that day's entry; the day after, it is over
        #expect(streak.shown(at: now.addingTimeInterval(86_400), timeZone: paris) == .init(days: 3, todayHasEntry: false))
        #expect(streak.shown(at: now.addingTimeInterval(2 * 86_400), timeZone: paris) == .init(days: 0, todayHasEntry: false))
    }

    @Test func eachEntryCountsOnItsOwnDayAcrossMonthsAndZones() throws {
        // Given 1 March 00:30 in Tokyo (still 28 February in Paris) and 28 February in Paris
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        try harness.store.noteWritten("Tokyo", at: Date(timeIntervalSince1970: 1_803_828_600), timeZone: tokyo)
        try harness.store.noteWritten("Paris", at: Date(timeIntervalSince1970: 1_803_805_200), timeZone: paris)
        // Then they are two days in a row, the newest 1 March
        let streak = DiaryStreak.of(try harness.store.entries())
        #expect(streak == DiaryStreak(days: 2, lastDay: "2027-03-01"))
        // And back in Paris that evening (still 28 February there), today has its entry and the run goes on
        let parisEvening = Date(timeIntervalSince1970: 1_803_830_400)
        #expect(streak.shown(at: parisEvening, timeZone: paris) == .init(days: 2, todayHasEntry: true))
    }

    @Test func anEmptyDiaryHasNoStreakAndASavedOneIsReadBack() throws {
        let empty = DiaryStreak.of([])
        #expect(empty == DiaryStreak(days: 0, lastDay: nil))
        #expect(empty.shown(at: now) == .init(days: 0, todayHasEntry: false))
        let defaults = try #require(UserDefaults(suiteName: "mydaykit-streak-\(UUID())"))
        #expect(DiaryStreak.saved(in: defaults) == nil)
        DiaryStreak(days: 4, lastDay: "2026-11-18").save(to: defaults)
        #expect(DiaryStreak.saved(in: defaults) == DiaryStreak(days: 4, lastDay: "2026-11-18"))
        DiaryStreak.forget(in: defaults)
        #expect(DiaryStreak.saved(in: defaults) == nil)
    }
}
