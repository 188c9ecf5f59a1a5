import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// An entry moved to another day or time (`PATCH` with `created_at` and `tz`), with the rules of creation: the day it
/// is grouped under, its file name, search's date filters and the change feed follow.
@Suite struct EntryMomentTests {
    @Test(arguments: TestDatabase.available)
    func anEntryMovedToAnotherMomentBelongsToItsNewDay(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let me = try await api.register()
            // Given a note written on 1 May 2026 at 09:30 in Lisbon
            let id = UUID().uuidString.lowercased()
            try await api.send(
                .post, "/v1/entries", token: me.accessToken,
                json: [
                    "id": id, "created_at": "2026-05-01T08:30:00Z", "tz": "Europe/Lisbon", "duration_s": 0, "kind": "text",
                    "text": "Written a week late about the kayak trip.",
                ], expecting: .created)
            let cursor = try #require(
                try await api.send(.get, "/v1/entries", token: me.accessToken).json["next_cursor"] as? String)

            // Bad moments are refused and change nothing
            for bad: [String: Any] in [
                ["created_at": "1999-12-31T23:00:00Z"], ["created_at": "2999-01-01T00:00:00Z"], ["tz": "Mars/Olympus"],
                ["created_at": "2026-04-20T21:00:00Z", "tz": "Not/AZone"],
            ] {
                let reply = try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: bad)
                #expect([400, 422].contains(reply.status.code), "\(bad): \(reply.status)")
            }
            let unchanged = try await api.send(.get, "/v1/entries/\(id)", token: me.accessToken, expecting: .ok).json
            #expect(
                unchanged["created_at"] as? String == "2026-05-01T08:30:00.000Z" && unchanged["tz"] as? String == "Europe/Lisbon")

            // When it is moved to the evening it happened, 20 April at 23:00 in Berlin
            let moved = try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken,
                json: ["created_at": "2026-04-20T21:00:00Z", "tz": "Europe/Berlin"], expecting: .ok
            ).json
            // Then it says so, its file name follows, and its old day no longer holds it while the new one does
            #expect(moved["created_at"] as? String == "2026-04-20T21:00:00.000Z" && moved["tz"] as? String == "Europe/Berlin")
            #expect((moved["filename"] as? String)?.hasPrefix("2026-04-20_23-00-00_") == true, "\(moved)")
            #expect((moved["filename"] as? String)?.hasSuffix(".txt") == true)
            func dayHolds(_ date: String, _ zone: String) async throws -> Bool {
                let page = try await api.send(.get, "/v1/days/\(date)?tz=\(zone)", token: me.accessToken, expecting: .ok)
                return ((page.json["entries"] as? [[String: Any]]) ?? []).contains { $0["id"] as? String == id }
            }
            #expect(try await dayHolds("2026-04-20", "Europe/Berlin"))
            #expect(try await !dayHolds("2026-05-01", "Europe/Lisbon"))
            // and a search of that day finds it, and the change feed carries the move
            let found = try await api.send(
                .get, "/v1/search?q=kayak&from=2026-04-20&to=2026-04-20&tz=Europe/Berlin", token: me.accessToken,
                expecting: .ok)
            #expect((found.json["hits"] as? [[String: Any]])?.count == 1, "\(found.text)")
            let changes = try await api.send(.get, "/v1/entries?since=\(cursor)", token: me.accessToken, expecting: .ok)
            #expect(
                (changes.json["entries"] as? [[String: Any]])?.first?["created_at"] as? String == "2026-04-20T21:00:00.000Z")

            // A new zone alone keeps the moment: 21:00 UTC is 17:00 in New York, still the 20th
            let rezoned = try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken, json: ["tz": "America/New_York"], expecting: .ok
            ).json
            #expect(rezoned["created_at"] as? String == "2026-04-20T21:00:00.000Z")
            #expect((rezoned["filename"] as? String)?.hasPrefix("2026-04-20_17-00-00_") == true, "\(rezoned)")
            #expect(try await dayHolds("2026-04-20", "America/New_York"))
        }
    }
}
