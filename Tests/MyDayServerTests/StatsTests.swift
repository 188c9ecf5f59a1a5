import Foundation
import MyDaySearch
import Testing

@testable import MyDayServer

@Suite struct StatsTests {
    private func day(_ text: String) -> LocalDay { LocalDay(iso: text)! }

    @Test func streaksMonthsAndWordsCountEachEntryOnItsOwnDay() {
        // Given entries on 28, 29 and 30 March 2026, then 1 and 2 April, each on the day it was made where it was made
        let entries = [
            ("2026-03-28", 60.0, "Late, in Paris."),
            ("2026-03-29", 30.0, "Summer time."),
            ("2026-03-30", 15.0, nil),
            ("2026-04-01", 10.0, "One two three"),
            ("2026-04-02", 5.0, "Four"),
        ].map { DiaryStats.Entry(day: day($0.0), durationSeconds: $0.1, words: DiaryStats.wordCount($0.2)) }

        // When counted on 2 April
        let stats = DiaryStats(entries: entries, today: day("2026-04-02"))

        // Then three days form the longest run, the current one is two days, and months split at April
        #expect(stats.totalEntries == 5 && stats.totalDurationSeconds == 120)
        #expect(stats.words == 3 + 2 + 3 + 1)
        #expect(stats.longestStreakDays == 3)
        #expect(stats.currentStreakDays == 2)
        #expect(stats.months.map(\.month) == ["2026-03", "2026-04"])
        #expect(stats.months.map(\.entries) == [3, 2])
        // A day without an entry yet keeps yesterday's streak; two days without end it
        #expect(DiaryStats(entries: entries, today: day("2026-04-03")).currentStreakDays == 2)
        #expect(DiaryStats(entries: entries, today: day("2026-04-04")).currentStreakDays == 0)
    }

    @Test(arguments: TestDatabase.available)
    func theProfileCountsEachEntryOnItsOwnDayAsInsightsDo(_ database: TestDatabase) async throws {
        let now = try Date("2026-05-03T12:00:00Z", strategy: .iso8601)
        try await TestServer.make(database) { $0.clock = { now } }.run { api in
            let me = try await api.register()
            // Given an entry on 1 May in London, one made at 01:30 on 2 May in Tokyo (still 1 May in London), and one on
            // 3 May in London
            for (at, tz) in [
                ("2026-05-01T08:30:00Z", "Europe/London"), ("2026-05-01T16:30:00Z", "Asia/Tokyo"),
                ("2026-05-03T09:00:00Z", "Europe/London"),
            ] {
                try await api.send(
                    .post, "/v1/entries", token: me.accessToken,
                    json: ["id": UUID().uuidString, "created_at": at, "tz": tz, "kind": "text", "text": "A day."],
                    expecting: .created)
            }
            // When the Profile and Insights are asked from London on 3 May
            let stats = try await api.send(.get, "/v1/me/stats?tz=Europe/London", token: me.accessToken, expecting: .ok)
            let insights = try await api.send(
                .get, "/v1/me/insights?tz=Europe/London", token: me.accessToken, expecting: .ok)
            // Then the Tokyo entry fills 2 May in both: one run of three days, today's
            #expect(stats.json["current_streak_days"] as? Int == 3, "\(stats.text)")
            #expect(stats.json["longest_streak_days"] as? Int == 3)
            #expect(insights.json["current_streak_days"] as? Int == 3, "\(insights.text)")
            #expect(insights.json["longest_streak_days"] as? Int == 3)
            let months = try #require(stats.json["months"] as? [[String: Any]])
            #expect(months.count == 1 && months.first?["entries"] as? Int == 3)
        }
    }

    @Test func wordsAreRunsOfLettersDigitsAndApostrophesInAnyScript() {
        #expect(DiaryStats.wordCount("It's a 2-day trip, isn't it?") == 7)
        #expect(DiaryStats.wordCount("Déjà vu — the café’s crème!") == 5)
        #expect(DiaryStats.wordCount("...\r\n\r\n -- ") == 0)
        #expect(DiaryStats.wordCount("") == 0 && DiaryStats.wordCount(nil) == 0)
    }

    @Test(arguments: TestDatabase.available)
    func theProfileEndpointCountsOnlyTheUsersLiveEntries(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let me = try await api.register()
            let other = try await api.register()
            // Given two entries of mine, one of mine deleted, and one of somebody else's
            let deleted = UUID()
            let entries = [(me, UUID(), "Hello there"), (me, UUID(), "A third word"), (me, deleted, "Gone and forgotten now")]
            for (session, id, text) in entries + [(other, UUID(), "not mine at all")] {
                try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: [
                        "id": id.uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text",
                        "duration_s": 12.5, "text": text,
                    ], expecting: .created)
            }
            try await api.send(.delete, "/v1/entries/\(deleted)", token: me.accessToken, expecting: .noContent)
            // Then my figures count my two live entries only
            let stats = try await api.send(.get, "/v1/me/stats?tz=Europe/Paris", token: me.accessToken)
            #expect(stats.status == .ok)
            #expect(stats.json["total_entries"] as? Int == 2)
            #expect(stats.json["words"] as? Int == 5)
            #expect(stats.json["total_duration_s"] as? Double == 25)
            #expect(stats.json["tz"] as? String == "Europe/Paris")
            #expect(
                try await api.send(.get, "/v1/me/stats?tz=Mars/Olympus", token: me.accessToken).status == .unprocessableContent)
        }
    }
}
