import Foundation
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// Exports as a privacy matter (ADR 0021): mailed only to the account's confirmed address from the public URL, asked
/// for with a recent sign-in, links that die with the sessions, the export or the entries they hold.
@Suite struct ExportPrivacyTests {
    private static var day: [String: Any] { ["from": "2026-05-01", "to": "2026-05-01", "tz": "Europe/Paris"] }

    private func readyExport(_ api: APIClient, _ session: APIClient.Session, _ range: [String: Any]? = nil) async throws
        -> [String: Any]
    {
        let range = range ?? Self.day
        let asked = try await api.send(.post, "/v1/exports", token: session.accessToken, json: range, expecting: .accepted)
        let id = try #require(asked.json["id"] as? String)
        var export: [String: Any] = [:]
        try await pollUntil("the export is ready") {
            export = try await api.send(.get, "/v1/exports/\(id)", token: session.accessToken).json
            return export["status"] as? String == "ready"
        }
        return export
    }

    private func server(_ database: TestDatabase) async throws -> TestServer {
        try await TestServer.make(database) {
            $0.workers = 1
            $0.publicURL = TestServer.publicURL
            $0.rateLimits.exportsPerUser = RateLimit(perMinute: 100)
        }
    }

    @Test func anUnconfirmedAddressGetsNoMailAndTheLinkIsShownInTheApp() async throws {
        let server = try await server(.sqlite)
        try await server.run { api in
            let session = try await api.register("unconfirmed@example.com")
            try await api.createUploadedEntry(session)
            let export = try await readyExport(api, session)
            #expect(export["mailed_to"] == nil && export["download_url"] is String)
            // The free "email" field is gone: a third party's address is refused, not mailed
            var third = Self.day
            third["email"] = "someone.else@example.com"
            #expect(try await api.send(.post, "/v1/exports", token: session.accessToken, json: third).status == .badRequest)
            // Once every mail job has run (a ready export's mail is queued as it becomes ready), none mailed the export
            try await server.awaitMailJobsRun()
            #expect(server.mails(to: "unconfirmed@example.com", subject: "export is ready").isEmpty)
            #expect(server.mails(to: "someone.else@example.com", subject: "").isEmpty)
        }
    }

    @Test func anExportNeedsARecentSignIn() async throws {
        let server = try await server(.sqlite)
        try await server.run { api in
            let session = try await api.register("old@example.com", password: "my own passphrase")
            let secret = try SigningSecret.load(configured: server.configuration.secret, file: server.configuration.secretFile)
            let user = UserRecord(
                id: UUID(uuidString: session.userID)!, email: "old@example.com", name: nil, hasPassword: true, createdAt: Date(),
                tokenVersion: 0)
            let oldToken = try await AccessTokens(secret: secret, lifetime: .seconds(900))
                .make(for: user, signedInAt: Date().addingTimeInterval(-600))
            let bare = try await api.send(.post, "/v1/exports", token: oldToken, json: Self.day)
            #expect(bare.status == .forbidden && bare.errorCode == "reauthentication_needed")
            var wrong = Self.day
            wrong["reauthentication"] = ["password": "a wrong guess"]
            #expect(try await api.send(.post, "/v1/exports", token: oldToken, json: wrong).status == .forbidden)
            #expect((try await api.send(.get, "/v1/exports", token: oldToken).json["exports"] as? [Any])?.isEmpty == true)
            var proven = Self.day
            proven["reauthentication"] = ["password": "my own passphrase"]
            #expect(try await api.send(.post, "/v1/exports", token: oldToken, json: proven).status == .accepted)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aLinkDiesWithSignOutEverywhereAPasswordChangeItsDeletionAndTheAccounts(_ database: TestDatabase) async throws {
        let server = try await server(database)
        try await server.run { api in
            var session = try await api.register("careful@example.com", password: "the first passphrase")
            try await api.createUploadedEntry(session)
            func isDead(_ export: [String: Any], _ session: APIClient.Session?) async throws -> Bool {
                let link = try #require(export["download_url"] as? String)
                let id = try #require(export["id"] as? String)
                let download = try await api.send(.get, link).status
                let archiveGone = !server.storedBlobs().contains { $0.hasSuffix(id) }
                guard let session else { return download != .ok && archiveGone }
                let now = try await api.send(.get, "/v1/exports/\(id)", token: session.accessToken).json
                return download != .ok && archiveGone && now["download_url"] == nil
            }
            func signIn(_ password: String) async throws -> APIClient.Session {
                APIClient.session(
                    try await api.send(
                        .post, "/v1/auth/email/login", json: ["email": "careful@example.com", "password": password],
                        expecting: .ok))
            }

            // Sign out everywhere: the link stops, the archive goes at once
            let first = try await readyExport(api, session)
            #expect(try await api.send(.get, try #require(first["download_url"] as? String)).status == .ok)
            try await api.send(.post, "/v1/auth/logout-all", token: session.accessToken, expecting: .noContent)
            session = try await signIn("the first passphrase")
            #expect(try await isDead(first, session))
            let listed = try await api.send(.get, "/v1/exports/\(first["id"]!)", token: session.accessToken).json
            #expect(listed["status"] as? String == "expired")
            #expect((listed["failure_reason"] as? String)?.contains("every sign-in was ended") == true)

            // A password change
            let second = try await readyExport(api, session)
            let changed = try await api.send(
                .post, "/v1/me/password", token: session.accessToken,
                json: ["current_password": "the first passphrase", "new_password": "the second passphrase"], expecting: .ok)
            session = APIClient.session(changed)
            #expect(try await isDead(second, session))

            // Deleting the export
            let third = try await readyExport(api, session)
            let thirdID = try #require(third["id"] as? String)
            try await api.send(.delete, "/v1/exports/\(thirdID)", token: session.accessToken, expecting: .noContent)
            #expect(try await api.send(.get, "/v1/exports/\(thirdID)", token: session.accessToken).status == .notFound)
            #expect(try await isDead(third, nil))
            #expect(try await api.send(.delete, "/v1/exports/\(thirdID)", token: session.accessToken).status == .notFound)

            // Closing the account
            let fourth = try await readyExport(api, session)
            try await api.send(.delete, "/v1/me", token: session.accessToken, expecting: .accepted)
            #expect(try await api.send(.get, try #require(fourth["download_url"] as? String)).status != .ok)
            try await pollUntil("the account's blobs are gone") { server.storedBlobs().isEmpty }
        }
    }

    @Test(arguments: TestDatabase.available)
    func anotherPersonsEntriesNeverEnterAnExport(_ database: TestDatabase) async throws {
        let server = try await server(database)
        try await server.run { api in
            // Given two people who each wrote on the 1st of May, in the same time zone
            let mine = try await api.register()
            let theirs = try await api.register()
            for (session, words) in [(mine, "My own walk by the lake."), (theirs, "Their secret plans for the harbour.")] {
                try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: [
                        "id": UUID().uuidString.lowercased(), "created_at": "2026-05-01T08:30:00Z", "tz": "Europe/Paris",
                        "kind": "text", "text": words,
                    ],
                    expecting: .created)
            }
            // When one of them exports that day
            let export = try await readyExport(api, mine, Self.day.merging(["formats": ["markdown", "json"]]) { $1 })
            let zip = try await api.send(.get, try #require(export["download_url"] as? String))
            let files = try await ExportTests.openZip(zip.body)
            // Then the archive holds their own words and nothing of the other person's, in any file
            let texts = files.values.compactMap(\.text).joined(separator: "\n")
            #expect(texts.contains("My own walk by the lake."))
            #expect(!texts.contains("secret plans") && !texts.contains("harbour"), "\(files.keys.sorted())")
            #expect(export["entries"] as? Int == 1)
        }
    }

    @Test(arguments: TestDatabase.available)
    func deletingAnEntryEndsTheExportsThatHoldItAndPurgesItsJobs(_ database: TestDatabase) async throws {
        let server = try await server(database)
        try await server.run { api in
            let session = try await api.register()
            // Given an entry on the 1st of May (Paris), and exports of the 1st and of the 2nd
            let entry = try await api.createUploadedEntry(session)
            try await pollUntil("transcribed") {
                try await api.send(.get, "/v1/entries/\(entry)", token: session.accessToken).json["status"] as? String
                    == "transcribed"
            }
            let holding = try await readyExport(api, session)
            let other = try await readyExport(
                api, session, ["from": "2026-05-02", "to": "2026-05-02", "tz": "Europe/Paris"])
            // When the entry is deleted
            try await api.send(.delete, "/v1/entries/\(entry)", token: session.accessToken, expecting: .noContent)
            // Then the export that holds it dies with its archive; the other stays
            #expect(try await api.send(.get, try #require(holding["download_url"] as? String)).status != .ok)
            #expect(!server.storedBlobs().contains { $0.hasSuffix(holding["id"] as? String ?? "-") })
            #expect(try await api.send(.get, try #require(other["download_url"] as? String)).status == .ok)
            // And no job keeps anything of it: finished jobs keep no payload
            let payloads = try await server.withDatabase { driver in
                try await driver.read { db in
                    try await db.raw("SELECT payload FROM jobs WHERE state IN ('succeeded', 'dead')").all().map {
                        try $0.decode(column: "payload", as: String.self)
                    }
                }
            }
            #expect(!payloads.isEmpty && payloads.allSatisfy { $0 == "{}" })
        }
    }

    @Test func aWaitingTranscriptionOfADeletedEntryIsRemovedWithThePhonesWords() async throws {
        // Given no worker, so the transcription waits with the phone's own words in its payload
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            let session = try await api.register()
            let audio = try await TestAudio.m4a()
            let id = try await api.createAndUpload(session, audio)
            let words = [["word": "private", "start": 0.1, "end": 0.5], ["word": "words", "start": 0.6, "end": 1.0]]
            try await api.send(
                .post, "/v1/entries/\(id)/complete", token: session.accessToken,
                json: ["transcript": ["text": "private words", "words": words, "language": "en", "engine": "test"]],
                expecting: .ok)
            func waitingJobs() async throws -> Int {
                try await server.withDatabase { driver in
                    try await driver.read { db in
                        try await db.raw("SELECT COUNT(*) AS n FROM jobs WHERE payload LIKE '%private%'").first()!
                            .decode(column: "n", as: Int.self)
                    }
                }
            }
            #expect(try await waitingJobs() == 1)
            try await api.send(.delete, "/v1/entries/\(id)", token: session.accessToken, expecting: .noContent)
            #expect(try await waitingJobs() == 0)
        }
    }
}
