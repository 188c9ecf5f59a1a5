import Foundation
import MyDaySearch
import Synchronization
import Testing

@testable import MyDayKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@MainActor
@Suite struct WidgetShelfTests {
    let harness = CoreHarness()
    let now = Given.now
    let paris = Given.paris

    private func pastDay() -> PastDay {
        var entry = ServerEntry(
            id: UUID(), createdAt: now, timeZone: "UTC", duration: 0, kind: .text, status: .transcribed, filename: "a.txt",
            updatedAt: now)
        entry.title = "Lisbon"
        return PastDay(date: "2025-11-18", unit: .year, count: 1, entries: [entry])
    }

    @Test func theWidgetsShowTheDiaryLoseItsWordsWhenLockedAndForgetItAtSignOut() async throws {
        // Given the App Group's defaults and a diary with an entry
        let defaults = try #require(UserDefaults(suiteName: "myday-widgets-\(UUID().uuidString)"))
        var reloaded: [String?] = []
        let shelf = WidgetShelf(defaults: defaults) { reloaded.append($0) }
        try harness.synced([Given.serverEntry(UUID())])
        // When the streak is shown, then it is saved and its widgets redraw
        shelf.showStreak(of: harness.store)
        #expect(DiaryStreak.saved(in: defaults) != nil && reloaded == [WidgetShelf.streakKind])
        // When On this day is asked for today in Paris, then today's answer is saved with its words
        var client = FakeMyDayClient()
        let asked = Mutex("")
        let past = pastDay()
        client.onOnThisDay = { day, zone in
            asked.withLock { $0 = "\(day ?? "") \(zone)" }
            return [past]
        }
        await shelf.showOnThisDay(asking: client, words: { true }, now: now, timeZone: paris)
        #expect(asked.withLock { $0 } == "2026-11-18 Europe/Paris")
        let saved = try #require(OnThisDayWidgetContent.saved(in: defaults))
        #expect(saved.memories.first?.preview == "Lisbon" && reloaded.last == WidgetShelf.onThisDayKind)
        // When the lock is turned on, then the words go at once
        shelf.hideWords()
        #expect(OnThisDayWidgetContent.saved(in: defaults)?.memories.first?.preview == nil)
        // When the server cannot be reached, then what was saved stays
        client.onOnThisDay = { _, _ in throw URLError(.notConnectedToInternet) }
        await shelf.showOnThisDay(asking: client, words: { true }, now: now, timeZone: paris)
        #expect(OnThisDayWidgetContent.saved(in: defaults)?.memories.count == 1)
        // When the session ends, then the widgets show nothing of the diary, and all of them redraw
        shelf.forget()
        #expect(DiaryStreak.saved(in: defaults) == nil && OnThisDayWidgetContent.saved(in: defaults) == nil)
        #expect(reloaded.last == .some(nil))
    }
}
