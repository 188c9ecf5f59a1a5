import Foundation
import MyDayModels
import Testing

@testable import MyDayKit

@MainActor
@Suite struct InsightsViewModelTests {
    let harness = CoreHarness()

    private func loaded(_ insights: Insights) async -> InsightsViewModel {
        var client = FakeMyDayClient()
        client.onInsights = { from, to, zone in
            #expect(from == nil && to == nil && zone == "Europe/Paris")
            return insights
        }
        let model = InsightsViewModel(core: harness.core(client), timeZone: Given.paris)
        await model.load()
        return model
    }

    @Test func theCalendarHasEveryDayOfTheSpanInMondayFirstColumnsAndSaysEachInWords() async {
        // Given figures from Wednesday 4 March to Tuesday 17 March 2026, with entries on two days
        let model = await loaded(
            Insights(
                from: "2026-03-04", to: "2026-03-17",
                days: [
                    .init(date: "2026-03-04", entries: 1, seconds: 0, words: 40, mood: nil),
                    .init(date: "2026-03-12", entries: 5, seconds: 150, words: 300, mood: 4),
                ], currentStreak: 0, longestStreak: 1))
        // Then there are three columns, the first starting on Wednesday, holding all fourteen days once
        let columns = model.calendar
        #expect(columns.map(\.count) == [5, 7, 2])
        #expect(columns.flatMap { $0 }.map(\.date).first == "2026-03-04" && columns.flatMap { $0 }.count == 14)
        // And each day's level and words say what it holds, not only its colour
        let twelfth = columns[1].first { $0.date == "2026-03-12" }
        #expect(twelfth?.level == 3 && twelfth?.accessibilityLabel == "12 March 2026: 5 entries, 3 minutes recorded, mood 4 of 5")
        #expect(columns[0][0].accessibilityLabel == "4 March 2026: 1 entry")
        #expect(columns[0][1].level == 0 && columns[0][1].accessibilityLabel == "5 March 2026: no entry")
        // And the weeks add the minutes of their days, with the empty last week at zero
        #expect(
            model.weeks == [
                .init(monday: "2026-03-02", minutes: 0), .init(monday: "2026-03-09", minutes: 2.5),
                .init(monday: "2026-03-16", minutes: 0),
            ])
        #expect(model.moods.map(\.mood) == [4])
        #expect(model.streakSummary == "Current streak: 0 days · longest: 1 day")
    }

    @Test func aFailedLoadSaysWhy() async {
        var client = FakeMyDayClient()
        client.onInsights = { _, _, _ in
            throw MyDayClientError.server(status: 500, code: "internal", message: "Something went wrong.", retryAfter: nil)
        }
        let model = InsightsViewModel(core: harness.core(client), timeZone: Given.paris)
        await model.load()
        #expect(model.insights == nil && model.errorMessage != nil)
    }
}

@MainActor
@Suite struct OnThisDayViewModelTests {
    let harness = CoreHarness()

    @Test func eachDayBeforeIsHeadedByHowLongAgoAndPreviewsItsFirstEntry() async {
        // Given a week ago (a titled entry) and three years ago (a long untitled one)
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        func entry(title: String?, text: String) -> ServerEntry {
            var entry = ServerEntry(
                id: UUID(), createdAt: at, timeZone: "UTC", duration: 0, kind: .text, status: .transcribed,
                filename: "a.txt", updatedAt: at)
            entry.title = title
            entry.transcriptClean = text
            return entry
        }
        let days = [
            PastDay(date: "2026-11-20", unit: .week, count: 1, entries: [entry(title: "Swim", text: "Cold water.")]),
            PastDay(
                date: "2023-11-27", unit: .year, count: 3,
                entries: [entry(title: nil, text: String(repeating: "word ", count: 40))]),
        ]
        var client = FakeMyDayClient()
        client.onOnThisDay = { date, zone in
            #expect(date == nil && zone == "Europe/Paris")
            return days
        }
        let model = OnThisDayViewModel(core: harness.core(client), timeZone: Given.paris)
        await model.load()
        // Then Home can show them, each opening its day
        #expect(model.memories.map(\.heading) == ["A week ago", "3 years ago"])
        #expect(model.memories.map(\.date) == ["2026-11-20", "2023-11-27"])
        #expect(
            model.memories[0].preview == "Swim" && model.memories[1].preview.count == 120
                && model.memories[1].preview.hasSuffix("…"))
        // A recording without words or title (an empty one) says what it is
        var recording = entry(title: "", text: "")
        recording.kind = .audio
        let untitled = OnThisDayViewModel.memory(PastDay(date: "2026-11-20", unit: .week, count: 1, entries: [recording]))
        #expect(untitled.preview == "A recording")
    }
}
