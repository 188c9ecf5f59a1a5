import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// A deleted entry waits 30 days in Recently deleted, hidden from everything else, to be brought back as it was or
/// deleted for good sooner; then it goes for good with its audio.
@Suite struct RecentlyDeletedTests {
    private func note(_ api: APIClient, _ session: APIClient.Session, _ text: String) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await api.send(
            .post, "/v1/entries", token: session.accessToken,
            json: ["id": id, "created_at": "2026-04-03T12:00:00Z", "tz": "UTC", "kind": "text", "text": text],
            expecting: .created)
        return id
    }

    private static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    private func ids(_ api: APIClient, _ session: APIClient.Session, _ path: String) async throws -> [String] {
        let json = try await api.send(.get, path, token: session.accessToken).json
        let entries =
            (json["entries"] as? [[String: Any]])
            ?? (json["hits"] as? [[String: Any]])?.compactMap {
                $0["entry"] as? [String: Any]
            }
        return (entries ?? []).compactMap { ($0["entry"] as? [String: Any] ?? $0)["id"] as? String }
    }

    @Test(arguments: TestDatabase.available)
    func aDeletedEntryIsHiddenEverywhereAndComesBackAsItWas(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            // Given a titled, tagged entry and another one, and a device that has synced both
            let session = try await api.register()
            let kept = try await note(api, session, "Lunch with Siobhan by the harbour.")
            let other = try await note(api, session, "A quiet evening at home.")
            try await api.send(
                .patch, "/v1/entries/\(kept)", token: session.accessToken,
                json: ["title": "Harbour", "tags": ["friends"], "mood": 4],
                expecting: .ok)
            let cursor = try #require(
                try await api.send(.get, "/v1/entries", token: session.accessToken).json["next_cursor"] as? String)

            // When it is deleted
            let before = Date()
            try await api.send(.delete, "/v1/entries/\(kept)", token: session.accessToken, expecting: .noContent)

            // Then lists, search, its day and the entry itself no longer have it, and the device learns it was deleted
            #expect(try await ids(api, session, "/v1/entries") == [other])
            #expect(try await ids(api, session, "/v1/search?q=siobhan").isEmpty)
            #expect(try await ids(api, session, "/v1/days/2026-04-03?tz=UTC") == [other])
            #expect(try await api.send(.get, "/v1/entries/\(kept)", token: session.accessToken).status == .notFound)
            let delta = try await api.send(.get, "/v1/entries?since=\(cursor)", token: session.accessToken).json
            #expect(delta["deleted_ids"] as? [String] == [kept])
            // And Recently deleted holds it, whole, with the day it goes for good
            let deleted = try await api.send(.get, "/v1/recently-deleted", token: session.accessToken).json
            let item = try #require((deleted["entries"] as? [[String: Any]])?.first)
            let entry = try #require(item["entry"] as? [String: Any])
            #expect(entry["id"] as? String == kept && entry["title"] as? String == "Harbour")
            #expect(entry["transcript_clean"] as? String == "Lunch with Siobhan by the harbour.")
            let deletedAt = try #require((item["deleted_at"] as? String).flatMap(Self.date))
            let purgeAt = try #require((item["purge_at"] as? String).flatMap(Self.date))
            #expect(deletedAt >= before.addingTimeInterval(-1))
            #expect(abs(purgeAt.timeIntervalSince(deletedAt) - 30 * 24 * 3600) < 1)

            // When it is brought back
            let restored = try await api.send(.post, "/v1/recently-deleted/\(kept)/restore", token: session.accessToken)
            #expect(restored.status == .ok, "\(restored.text)")
            // Then it is as it was, everywhere, and the device gets it again
            #expect(restored.json["title"] as? String == "Harbour" && restored.json["tags"] as? [String] == ["friends"])
            #expect(restored.json["mood"] as? Int == 4)
            #expect(try await ids(api, session, "/v1/search?q=siobhan") == [kept])
            #expect(Set(try await ids(api, session, "/v1/days/2026-04-03?tz=UTC")) == [kept, other])
            let again = try await api.send(.get, "/v1/entries?since=\(cursor)", token: session.accessToken).json
            #expect((again["entries"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [kept])
            #expect((again["deleted_ids"] as? [String])?.isEmpty == true)
            #expect(try await ids(api, session, "/v1/recently-deleted").isEmpty)
            // And it cannot be brought back twice
            #expect(
                try await api.send(.post, "/v1/recently-deleted/\(kept)/restore", token: session.accessToken).status
                    == .notFound)
        }
    }

    @Test(arguments: TestDatabase.available)
    func deletingForGoodLeavesNothingToBringBackAndTouchesNobodyElse(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            // Given an entry of Alice's in Recently deleted
            let alice = try await api.register()
            let bob = try await api.register()
            let id = try await note(api, alice, "Something I would rather forget.")
            try await api.send(.delete, "/v1/entries/\(id)", token: alice.accessToken, expecting: .noContent)

            // When Bob asks to bring it back or delete it for good, it is as absent as a missing one
            #expect(try await api.send(.post, "/v1/recently-deleted/\(id)/restore", token: bob.accessToken).status == .notFound)
            #expect(try await api.send(.delete, "/v1/recently-deleted/\(id)", token: bob.accessToken).status == .notFound)
            #expect(try await ids(api, bob, "/v1/recently-deleted").isEmpty)
            #expect(try await ids(api, alice, "/v1/recently-deleted") == [id])

            // When Alice deletes it for good
            try await api.send(.delete, "/v1/recently-deleted/\(id)", token: alice.accessToken, expecting: .noContent)
            // Then it is nowhere, cannot come back, and its words are gone from the database
            #expect(try await ids(api, alice, "/v1/recently-deleted").isEmpty)
            #expect(try await api.send(.post, "/v1/recently-deleted/\(id)/restore", token: alice.accessToken).status == .notFound)
            #expect(try await api.send(.delete, "/v1/recently-deleted/\(id)", token: alice.accessToken).status == .notFound)
            let left = try await server.withDatabase { driver in
                try await driver.read { db in
                    try await db.raw("SELECT transcript_clean, purge_at FROM entries WHERE id = \(bind: id)").first()
                }
            }
            let row = try #require(left)
            #expect(try row.decodeNil(column: "transcript_clean") && row.decodeNil(column: "purge_at"))
        }
    }

    @Test(arguments: TestDatabase.available)
    func after30DaysADeletedRecordingGoesForGoodWithItsAudio(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        try await server.run { api in
            // Given a recording deleted now
            let session = try await api.register()
            let id = try await api.createUploadedEntry(session)
            try await api.send(.delete, "/v1/entries/\(id)", token: session.accessToken, expecting: .noContent)
            #expect(server.storedBlobs().contains { $0.hasPrefix("audio/") })

            // When housekeeping runs a day before its 30 days end, it stays
            let deletedAt = Date()
            let early = try await server.withHousekeeping {
                try await $0.eraseExpiredDeletions(now: deletedAt.addingTimeInterval(29 * 24 * 3600))
            }
            #expect(early == 0)
            #expect(try await ids(api, session, "/v1/recently-deleted") == [id.lowercased])
            // When it runs after they ended
            let late = try await server.withHousekeeping {
                try await $0.eraseExpiredDeletions(now: deletedAt.addingTimeInterval(31 * 24 * 3600))
            }
            // Then the entry and its audio are gone for good
            #expect(late == 1)
            #expect(try await ids(api, session, "/v1/recently-deleted").isEmpty)
            #expect(!server.storedBlobs().contains { $0.hasPrefix("audio/") })
        }
    }

    @Test(arguments: TestDatabase.available)
    func aRecordingBroughtBackIsTranscribedAgainAndCountsTowardStorageWhileDeleted(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        try await server.run { api in
            // Given a recording waiting for its transcription
            let session = try await api.register()
            let id = try await api.createUploadedEntry(session)
            let stats = {
                try await api.send(.get, "/v1/me/stats", token: session.accessToken).json["storage_used_bytes"] as? Int
            }
            let used = try #require(try await stats())
            #expect(used > 0)
            #expect(try await transcriptionJobs(server) == 1)

            // When it is deleted, its transcription stops, and its storage still counts (it can come back)
            try await api.send(.delete, "/v1/entries/\(id)", token: session.accessToken, expecting: .noContent)
            #expect(try await transcriptionJobs(server) == 0)
            #expect(try await stats() == used)

            // When it is brought back, its transcription is queued again
            let restored = try await api.send(.post, "/v1/recently-deleted/\(id)/restore", token: session.accessToken)
            #expect(restored.json["status"] as? String == "uploaded", "\(restored.text)")
            #expect(try await transcriptionJobs(server) == 1)

            // And deleted for good, it no longer counts
            try await api.send(.delete, "/v1/entries/\(id)", token: session.accessToken, expecting: .noContent)
            try await api.send(.delete, "/v1/recently-deleted/\(id)", token: session.accessToken, expecting: .noContent)
            #expect(try await stats() == 0)
        }
    }

    private func transcriptionJobs(_ server: TestServer) async throws -> Int {
        try await server.withDatabase { driver in
            try await driver.read { db in
                try await db.raw(
                    "SELECT COUNT(*) AS n FROM jobs WHERE kind = \(bind: TranscriptionHandler.kind) AND state = 'queued'"
                ).first()?.decode(column: "n", as: Int.self) ?? 0
            }
        }
    }
}

/// Date-times are read by RFC 3339's ranges: a minute of 99 or February 30 is refused, not rolled over.
@Suite struct DateTimeInputTests {
    @Test func aDateTimeOutOfRangeIsRefusedAndChangesNothing() async throws {
        try await TestServer.make(.sqlite).run { api in
            let session = try await api.register()
            let id = UUID().uuidString.lowercased()
            let bad = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: ["id": id, "created_at": "2024-01-01T12:99:00Z", "tz": "UTC", "kind": "text", "text": "x"])
            #expect(bad.status == .badRequest, "\(bad.text)")
            try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: ["id": id, "created_at": "2024-01-01T12:09:00Z", "tz": "UTC", "kind": "text", "text": "x"],
                expecting: .created)
            for value in [
                "2024-01-01T12:99:00Z", "2024-13-01T12:00:00Z", "2024-01-01T12:00:00+24:00", "2023-02-29T12:00:00Z",
                "2024-04-31T12:00:00Z", "1900-02-29T12:00:00Z",
            ] {
                let edit = try await api.send(
                    .patch, "/v1/entries/\(id)", token: session.accessToken, json: ["created_at": value])
                #expect(edit.status == .badRequest, "\(value): \(edit.text)")
            }
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
            #expect((entry["created_at"] as? String)?.hasPrefix("2024-01-01T12:09:00") == true, "\(entry)")
            let moved = try await api.send(
                .patch, "/v1/entries/\(id)", token: session.accessToken, json: ["created_at": "2024-01-01T12:30:00.5+02:00"])
            #expect(moved.status == .ok, "\(moved.text)")
            // RFC 3339 allows a lower-case `t` and `z`, and 2024 has a February 29.
            let leapDay = try await api.send(
                .patch, "/v1/entries/\(id)", token: session.accessToken, json: ["created_at": "2024-02-29t08:15:00z"])
            #expect(leapDay.status == .ok, "\(leapDay.text)")
            let stored = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
            #expect(stored["created_at"] as? String == "2024-02-29T08:15:00.000Z", "\(stored)")
        }
    }
}
