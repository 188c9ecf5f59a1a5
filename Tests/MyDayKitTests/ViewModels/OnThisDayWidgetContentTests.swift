import Foundation
import MyDayKit
import MyDaySearch
import Testing

@Suite struct OnThisDayWidgetContentTests {
    /// 18 November 2026, 12:06 in Paris.
    let now = Given.now
    let paris = Given.paris

    private func entry(_ title: String) -> ServerEntry {
        var entry = ServerEntry(
            id: UUID(), createdAt: now, timeZone: "UTC", duration: 0, kind: .text, status: .transcribed, filename: "a.txt",
            updatedAt: now)
        entry.title = title
        return entry
    }

    private var found: [PastDay] {
        [
            PastDay(date: "2026-11-11", unit: .week, count: 1, entries: [entry("Swim")]),
            PastDay(date: "2024-11-18", unit: .year, count: 2, entries: [entry("Lisbon"), entry("Late train")]),
        ]
    }

    @Test func todayShowsTheFurthestDayBackAndTomorrowNothing() throws {
        // Given the days before found for today
        let widget = OnThisDayWidgetContent(day: LocalDay(now, in: paris), found: found, words: true)
        // Then today the widget shows two years ago, with its first entry's title and how many entries it has
        let shown = try #require(widget.shown(at: now, timeZone: paris))
        #expect(shown.heading == "2 years ago" && shown.preview == "Lisbon" && shown.entryCount == 2)
        #expect(shown.date == "2024-11-18")
        // And tomorrow these are no longer that day's days before
        #expect(widget.shown(at: now.addingTimeInterval(86_400), timeZone: paris) == nil)
    }

    @Test func aLockedDiaryKeepsItsWordsOutOfTheWidget() throws {
        // Given the app is locked with Face ID
        let widget = OnThisDayWidgetContent(day: LocalDay(now, in: paris), found: found, words: false)
        // Then the widget says when and how many, and no words
        let shown = try #require(widget.shown(at: now, timeZone: paris))
        #expect(shown.preview == nil && shown.heading == "2 years ago" && shown.entryCount == 2)
        #expect(widget.memories.allSatisfy { $0.preview == nil })
        // And a widget saved before the lock was turned on loses its words, nothing else
        let before = OnThisDayWidgetContent(day: LocalDay(now, in: paris), found: found, words: true)
        #expect(before.memories.contains { $0.preview != nil })
        #expect(before.withoutWords == widget)
    }

    @Test func itIsReadBackAsSavedAndADayWithoutMemoriesShowsNone() throws {
        let defaults = try #require(UserDefaults(suiteName: "on-this-day-\(UUID().uuidString)"))
        #expect(OnThisDayWidgetContent.saved(in: defaults) == nil)
        let widget = OnThisDayWidgetContent(day: LocalDay(now, in: paris), found: found, words: true)
        widget.save(to: defaults)
        #expect(OnThisDayWidgetContent.saved(in: defaults) == widget)
        // And gone once forgotten (the session ended)
        OnThisDayWidgetContent.forget(in: defaults)
        #expect(OnThisDayWidgetContent.saved(in: defaults) == nil)
        #expect(
            OnThisDayWidgetContent(day: LocalDay(now, in: paris), found: [], words: true).shown(at: now, timeZone: paris) == nil)
    }
}
