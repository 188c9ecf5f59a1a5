import Foundation
import MyDaySearch
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// `GET /v1/me/on-this-day`: the entries of the same date a week, a month and each year before.
@Suite struct OnThisDayTests {
    private func day(_ text: String) -> LocalDay { LocalDay(iso: text)! }

    @Test func aLeapDayComesBackOnTheTwentyEighthInYearsWithoutOne() {
        // Given 28 February 2027, a year without a 29th
        let lookbacks = OnThisDay.lookbacks(before: day("2027-02-28"), earliestYear: 2023)
        // Then a week and a month before are single days, and 2024's 29 February comes back with its 28th
        #expect(lookbacks.map(\.unit) == [.week, .month, .year, .year, .year, .year])
        #expect(lookbacks[0].days == [day("2027-02-21")] && lookbacks[1].days == [day("2027-01-28")])
        #expect(lookbacks.filter { $0.unit == .year }.map(\.count) == [1, 2, 3, 4])
        #expect(lookbacks[4].days == [day("2024-02-28"), day("2024-02-29")])
        #expect(lookbacks[2].days == [day("2026-02-28")])
        // And on 29 February itself, only the years that have one look back
        let leap = OnThisDay.lookbacks(before: day("2028-02-29"), earliestYear: 2020)
        #expect(leap.filter { $0.unit == .year }.map(\.count) == [4, 8])
        #expect(leap.first { $0.unit == .month }?.days == [day("2028-01-29")])
        // And on 28 February of a leap year the 29th is still to come, so it is not looked back to
        #expect(OnThisDay.lookbacks(before: day("2028-02-28"), earliestYear: 2024).last?.days == [day("2024-02-28")])
    }

    @Test func aMonthBeforeAShorterMonthIsItsLastDay() {
        #expect(OnThisDay.monthBefore(day("2026-03-31")) == day("2026-02-28"))
        #expect(OnThisDay.monthBefore(day("2024-03-30")) == day("2024-02-29"))
        #expect(OnThisDay.monthBefore(day("2026-01-15")) == day("2025-12-15"))
        #expect(OnThisDay.monthBefore(day("2026-07-31")) == day("2026-06-30"))
    }

    @Test(arguments: TestDatabase.available)
    func theDaysBeforeHoldTheOwnersEntriesByTheirOwnTimeZones(_ database: TestDatabase) async throws {
        // Given a server whose clock says 23:30 UTC on 27 November 2026: already the 28th in Auckland
        let now = try Date("2026-11-27T23:30:00Z", strategy: .iso8601)
        try await TestServer.make(database) { $0.clock = { now } }.run { api in
            let me = try await api.register()
            let other = try await api.register()
            func typed(_ session: APIClient.Session, _ at: String, _ tz: String, _ text: String) async throws -> String {
                let id = UUID().uuidString.lowercased()
                try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: ["id": id, "created_at": at, "tz": tz, "duration_s": 0, "kind": "text", "text": text],
                    expecting: .created)
                return id
            }
            // Entries made on 28 November in their own zones, one, two and three years back, and a week and a month
            let yearAgo = try await typed(me, "2025-11-29T07:30:00Z", "America/Los_Angeles", "Late in California.")
            let tokyo = try await typed(me, "2023-11-27T15:30:00Z", "Asia/Tokyo", "Early on the 28th in Tokyo.")
            let week = try await typed(me, "2026-11-21T09:00:00Z", "Europe/Paris", "A week ago.")
            let month = try await typed(me, "2026-10-28T09:00:00Z", "Europe/Paris", "A month ago.")
            // And entries that are not on the 28th where they were made, one deleted, and somebody else's
            _ = try await typed(me, "2025-11-28T23:30:00Z", "Europe/Paris", "Already the 29th in Paris.")
            let deleted = try await typed(me, "2024-11-28T12:00:00Z", "UTC", "Deleted since.")
            try await api.send(.delete, "/v1/entries/\(deleted)", token: me.accessToken, expecting: .noContent)
            _ = try await typed(other, "2025-11-28T12:00:00Z", "UTC", "Somebody else's.")

            // When I ask in Auckland, where today is 28 November
            let reply = try await api.send(.get, "/v1/me/on-this-day?tz=Pacific/Auckland", token: me.accessToken, expecting: .ok)
            // Then the days come nearest first, each with its span and only my live entries of it
            #expect(reply.json["date"] as? String == "2026-11-28")
            let days = try #require(reply.json["days"] as? [[String: Any]])
            #expect(days.map { $0["date"] as? String } == ["2026-11-21", "2026-10-28", "2025-11-28", "2023-11-28"])
            #expect(days.map { ($0["ago"] as? [String: Any])?["unit"] as? String } == ["week", "month", "year", "year"])
            #expect(days.map { ($0["ago"] as? [String: Any])?["count"] as? Int } == [1, 1, 1, 3])
            let ids = days.map { ($0["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
            #expect(ids == [[week], [month], [yearAgo], [tokyo]], "\(reply.text)")

            // A date can be named; a bad one or a bad zone is refused
            let named = try await api.send(.get, "/v1/me/on-this-day?date=2027-11-28", token: me.accessToken, expecting: .ok)
            let namedDays = try #require(named.json["days"] as? [[String: Any]])
            #expect(namedDays.compactMap { $0["date"] as? String } == ["2025-11-28", "2023-11-28"])
            #expect(namedDays.compactMap { ($0["ago"] as? [String: Any])?["count"] as? Int } == [2, 4])
            // A date far ahead looks back no further than a lifetime's diary, which holds none of these
            let farOff = try await api.send(.get, "/v1/me/on-this-day?date=9999-11-28", token: me.accessToken, expecting: .ok)
            #expect((farOff.json["days"] as? [Any])?.isEmpty == true, "\(farOff.text)")
            #expect(OnThisDay.lookbacks(before: LocalDay(iso: "9999-11-28")!, earliestYear: 2023).count == 2 + 150)
            for bad in ["date=2026-02-30", "date=today", "tz=Mars/Olympus"] {
                #expect(try await api.send(.get, "/v1/me/on-this-day?\(bad)", token: me.accessToken).status.code == 422, "\(bad)")
            }
        }
    }
}
