import Foundation
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// The per-user storage quota, attacked as a client filling the disk would: many entries, parallel creates, uploads
/// larger than declared, exports that copy the audio.
@Suite(.serialized) struct StorageQuotaTests {
    private let mebibyte = 1024 * 1024

    private func entryCount(_ server: TestServer) async throws -> Int {
        try await server.withDatabase { driver in
            try await driver.read { db in
                try await db.raw("SELECT COUNT(*) AS n FROM entries WHERE deleted_at IS NULL").first()!.decode(
                    column: "n", as: Int.self)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func audioPastTheQuotaIsRefusedAndNothingChanges(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) {
            $0.workers = 0
            $0.userQuotaBytes = 1024 * 1024
        }
        try await server.run { api in
            // Given a user with 600 KB of their 1 MiB in use
            let session = try await api.register()
            let first = try await api.createAudioEntry(session, sizeBytes: 600_000)
            #expect(first.reply.status == .created)

            // When they create another 600 KB entry
            let second = try await api.createAudioEntry(session, sizeBytes: 600_000)

            // Then it is refused with both figures, and no entry was made
            #expect(second.reply.status == .contentTooLarge)
            #expect(second.reply.errorCode == "quota_exceeded")
            #expect(second.reply.text.contains("600 KB") && second.reply.text.contains("1 MB"), "\(second.reply.text)")
            #expect(try await entryCount(server) == 1)
            let stats = try await api.send(.get, "/v1/me/stats", token: session.accessToken).json
            #expect(stats["storage_used_bytes"] as? Int == 600_000)
            #expect(stats["storage_quota_bytes"] as? Int == mebibyte)

            // And another user's room is their own
            let other = try await api.register()
            #expect(try await api.createAudioEntry(other, sizeBytes: 600_000).reply.status == .created)

            // And deleting the first entry makes room again (its recording never came: there is nothing to keep)
            let firstID = try #require(first.entry["id"] as? String)
            #expect(try await api.send(.delete, "/v1/entries/\(firstID)", token: session.accessToken).status == .noContent)
            #expect(try await api.createAudioEntry(session, sizeBytes: 600_000).reply.status == .created)
        }
    }

    @Test(arguments: TestDatabase.available)
    func parallelCreatesCannotOvershootTheQuota(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) {
            $0.workers = 0
            $0.userQuotaBytes = 1024 * 1024
        }
        try await server.run { api in
            // Given a user with room for three 300 KB entries
            let session = try await api.register()
            // When ten are created at once: all ten under way in the server before any is answered, and on PostgreSQL
            // all ten waiting together for the entries table
            let creates = (0..<10).map { _ in
                let body = Data(
                    """
                    {"id":"\(UUID().uuidString.lowercased())","created_at":"2026-05-01T08:30:00Z","tz":"Europe/Paris",\
                    "duration_s":1.5,"kind":"audio","size_bytes":300000,"content_type":"audio/mp4"}
                    """.utf8)
                return HeldRequests.Request.withBody(
                    head: "POST /v1/entries HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(session.accessToken)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n",
                    body: body)
            }
            let port = api.port
            let answers = try await server.withDatabase { driver in
                let holder = TableHolder(driver: driver, table: "entries", mode: .share)
                try await holder.hold()
                let creating = Task { try await HeldRequests.exchange(port: port, creates) }
                try await holder.release(onceWaiting: 10)
                return try await creating.value
            }
            let statuses = answers.map(\.status)
            // Then exactly three fit
            #expect(statuses.filter { $0 == 201 }.count == 3, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 413 }.count == 7, "\(statuses.sorted())")
            #expect(try await entryCount(server) == 3)
        }
    }

    @Test(arguments: TestDatabase.available)
    func theKeptTotalIsAlwaysWhatTheAccountKeeps(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        try await server.run { api in
            // Given two people, one with a recording, a typed entry and an entry being written
            let session = try await api.register()
            let other = try await api.register()
            var ids: [String] = []
            for (index, body) in [
                ["kind": "audio", "size_bytes": 300_000, "content_type": "audio/mp4"] as [String: Any],
                ["kind": "text", "text": "Tea with Siobhan by the canal."],
                ["kind": "text", "text": "Another person's words."],
            ].enumerated() {
                let id = UUID().uuidString.lowercased()
                ids.append(id)
                let json = body.merging(["id": id, "created_at": "2026-05-01T08:30:00Z", "tz": "Europe/Paris"]) { a, _ in a }
                let created = try await api.send(
                    .post, "/v1/entries", token: (index == 2 ? other : session).accessToken, json: json)
                try #require(created.status == .created, "\(created.text)")
            }
            let labelled = try await api.send(
                .patch, "/v1/entries/\(ids[1])", token: session.accessToken, json: ["title": "Canal", "tags": ["friends"]])
            try #require(labelled.status == .ok, "\(labelled.text)")
            // When every kind of change an entry or an export goes through is made, one at a time
            let userID = session.userID.lowercased()
            let owner = try #require(UUID(uuidString: userID))
            let otherOwner = try #require(UUID(uuidString: other.userID))
            let changes: [String] = [
                "UPDATE entries SET transcript_clean = 'Tea, and a long walk home.' WHERE id = '\(ids[1])'",
                "UPDATE entries SET transcript_raw = 'tea and a long walk home' WHERE id = '\(ids[1])'",
                "UPDATE entries SET status = 'uploaded' WHERE id = '\(ids[0])'",
                "UPDATE entries SET deleted_at = 5, purge_at = 10 WHERE id = '\(ids[1])'",
                "UPDATE entries SET deleted_at = NULL, purge_at = NULL WHERE id = '\(ids[1])'",
                "UPDATE entries SET deleted_at = 5, purge_at = 10, size_bytes = 100 WHERE id = '\(ids[0])'",
                "UPDATE entries SET purge_at = NULL WHERE id = '\(ids[0])'",
                """
                INSERT INTO exports (id, user_id, from_date, to_date, tz, formats, status, created_at, updated_at)
                VALUES ('e1', '\(userID)', '2026-01-01', '2026-12-31', 'UTC', '["text"]', 'building', 1, 1)
                """,
                "UPDATE exports SET size_bytes = 4096, blob_key = 'exports/e1.zip', status = 'ready' WHERE id = 'e1'",
                "UPDATE exports SET blob_key = NULL WHERE id = 'e1'",
                "UPDATE exports SET blob_key = 'exports/e1.zip' WHERE id = 'e1'",
                "DELETE FROM exports WHERE id = 'e1'",
                "DELETE FROM entries WHERE id = '\(ids[1])'",
            ]
            for change in changes {
                let (kept, summed) = try await server.withDatabase { driver in
                    try await driver.write { db in
                        try await db.raw(SQLQueryString(change)).run()
                        let kept = try await StorageUsage.bytes(userID: owner, in: db)
                        let summed = try await db.raw(
                            """
                            SELECT CAST(
                                COALESCE((SELECT SUM(COALESCE(size_bytes, 0) + text_bytes) FROM entries
                                    WHERE user_id = \(bind: userID) AND (deleted_at IS NULL OR purge_at IS NOT NULL)), 0)
                                + COALESCE((SELECT SUM(size_bytes) FROM exports
                                    WHERE user_id = \(bind: userID) AND blob_key IS NOT NULL AND size_bytes IS NOT NULL), 0)
                                AS BIGINT) AS used
                            """
                        ).first()!.decode(column: "used", as: Int.self)
                        return (kept, summed)
                    }
                }
                // Then after each, the account's kept total is the sum of what it keeps
                #expect(kept == summed, "\(change)")
            }
            let othersTotal = try await server.withDatabase { driver in
                try await driver.read { db in try await StorageUsage.bytes(userID: otherOwner, in: db) }
            }
            #expect(othersTotal == "Another person's words.".utf8.count)
        }
    }

    @Test func anUploadLargerThanDeclaredIsRefused() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 0 }
        try await server.run { api in
            // Given an entry declared as 1000 bytes
            let session = try await api.register()
            let created = try await api.createAudioEntry(session, sizeBytes: 1000)
            let url = try #require(created.uploadURL)
            // When 50 KB are sent to its upload URL, then they are refused and nothing is stored
            let upload = try await api.upload(url, Data(repeating: 7, count: 50_000))
            #expect(upload.status == .contentTooLarge)
            #expect(server.storedBlobs().isEmpty)
            #expect(server.temporaryFiles().isEmpty)
        }
    }

    @Test func exportsCountAgainstTheQuotaAndBuildOneAtATime() async throws {
        let audio = try await TestAudio.m4a()
        let server = try await TestServer.make(.sqlite) {
            $0.workers = 0
            $0.userQuotaBytes = audio.count * 3 / 2
        }
        try await server.run { api in
            // Given a user whose one recording fills two thirds of the quota
            let session = try await api.register()
            try await api.createUploadedEntry(session, audio: audio)

            // When they export its day, then the archive's copy of the audio would not fit
            let day = ["from": "2026-05-01", "to": "2026-05-01", "tz": "Europe/Paris"]
            let full = try await api.send(.post, "/v1/exports", token: session.accessToken, json: day)
            #expect(full.status == .contentTooLarge && full.errorCode == "quota_exceeded", "\(full.text)")

            // But a range without audio fits, and while it waits to be built a second export is refused
            let empty = ["from": "2020-01-01", "to": "2020-01-31", "tz": "UTC"]
            #expect(try await api.send(.post, "/v1/exports", token: session.accessToken, json: empty).status == .accepted)
            let second = try await api.send(.post, "/v1/exports", token: session.accessToken, json: empty)
            #expect(second.status == .conflict, "\(second.text)")
            let exports = try await api.send(.get, "/v1/exports", token: session.accessToken).json["exports"] as? [Any]
            #expect(exports?.count == 1)
        }
    }
}
