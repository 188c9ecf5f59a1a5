import Foundation
import Testing

@testable import MyDayServer

@Suite struct StatsTests {
    private let paris = TimeZone(identifier: "Europe/Paris")!

    private func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    @Test func streaksMonthsAndWordsCountInTheGivenTimeZone() {
        // Given entries on 28, 29 and 30 March 2026 in Paris (clocks go forward on the 29th), then 1 and 2 April
        let entries = [
            ("2026-03-27T23:30:00Z", 60.0, "Late, so the 28th in Paris."),  // 00:30 on the 28th in Paris
            ("2026-03-29T10:00:00Z", 30.0, "Summer time."),
            ("2026-03-30T07:00:00Z", 15.0, nil),
            ("2026-04-01T07:00:00Z", 10.0, "One two three"),
            ("2026-04-02T07:00:00Z", 5.0, "Four"),
        ].map { DiaryStats.Entry(createdAt: at($0.0), durationSeconds: $0.1, words: DiaryStats.wordCount($0.2)) }

        // When counted on 2 April in Paris
        let stats = DiaryStats(entries: entries, timeZone: paris, now: at("2026-04-02T20:00:00Z"))

        // Then three days form the longest run, the current one is two days, and months split at April
        #expect(stats.totalEntries == 5 && stats.totalDurationSeconds == 120)
        #expect(stats.words == 6 + 2 + 3 + 1)
        #expect(stats.longestStreakDays == 3)
        #expect(stats.currentStreakDays == 2)
        #expect(stats.months.map(\.month) == ["2026-03", "2026-04"])
        #expect(stats.months.map(\.entries) == [3, 2])

        // In UTC the late entry falls on the 27th, which leaves a gap on the 28th
        let utc = DiaryStats(entries: entries, timeZone: TimeZone(identifier: "UTC")!, now: at("2026-04-02T20:00:00Z"))
        #expect(utc.longestStreakDays == 2)
        // A day without an entry yet keeps yesterday's streak; two days without end it
        #expect(DiaryStats(entries: entries, timeZone: paris, now: at("2026-04-03T20:00:00Z")).currentStreakDays == 2)
        #expect(DiaryStats(entries: entries, timeZone: paris, now: at("2026-04-04T20:00:00Z")).currentStreakDays == 0)
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
