import Foundation
import Logging
import SQLKit
import Testing

@testable import MyDayServer

/// Every migration after the first, applied one at a time to a database that people already use, on both engines:
/// what they change is changed, everything else is kept, and the server then serves the diary as before.
@Suite struct MigrationTests {
    static let alice = UUID()
    static let bob = UUID()
    static let carol = UUID()
    static let dave = UUID()
    static let created = 1_700_000_000_000
    static let fireside = UUID()
    static let waiting = UUID()
    static let harbour = UUID()
    static let deleted = UUID()

    @Test(arguments: TestDatabase.available)
    func migrationsAfterTheFirstKeepAPopulatedDiary(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        let passwordHash = try await PasswordHasher(cost: server.configuration.bcryptCost).hash("alice's passphrase")
        try await server.withDatabase { driver in
            // Given a database of the first version with four people, written and spoken entries in every state
            try await Self.upTo(1, driver)
            try await Self.write(driver, Self.firstVersionRows(passwordHash: passwordHash))
            // and, as each later version arrived, the rows it made possible
            try await Self.upTo(2, driver)
            try await Self.write(
                driver,
                [
                    Self.job("done", state: "succeeded", payload: #"{"entry_id":"x","words":"what was said"}"#),
                    Self.job("waiting", state: "queued", payload: #"{"entry_id":"y"}"#),
                ])
            try await Self.upTo(3, driver)
            try await Self.write(
                driver,
                [
                    "UPDATE identities SET email = 'bob@example.com' WHERE subject = 'apple-bob'",
                    "INSERT INTO identities (provider, subject, user_id, created_at, email) VALUES ('google', 'google-carol', '\(Self.carol.lowercased)', 1, 'carol@example.com')",
                    "INSERT INTO identities (provider, subject, user_id, created_at, email) VALUES ('google', 'google-dave', '\(Self.dave.lowercased)', 1, 'someone-else@example.com')",
                    "INSERT INTO rate_limits (key, tat) VALUES ('login:alice@example.com', 5)",
                    // A title and a tag, which searches put first (kept apart on PostgreSQL since version 20)
                    "UPDATE entries SET title = 'Boats at dusk', tags = '[\"seaside\"]' WHERE id = '\(Self.harbour.lowercased)'",
                ])
            try await Self.upTo(4, driver)
            try await Self.write(
                driver,
                [
                    """
                    INSERT INTO exports (id, user_id, from_date, to_date, tz, email, formats, origin, status, created_at, updated_at)
                    VALUES ('\(UUID().lowercased)', '\(Self.alice.lowercased)', '2026-03-01', '2026-03-31', 'UTC', NULL, '["text"]',
                        'http://old.example', 'queued', 1, 1)
                    """
                ])

            // When the server migrates it the rest of the way, one version at a time
            for version in Migrator.all.map(\.version).filter({ $0 > 4 }) {
                try await Self.upTo(version, driver)
                // Two names of alice's vocabulary, each under the key that once dropped the marks of every script
                if version == 12 {
                    try await Self.write(
                        driver,
                        [
                            "ガナ": "カナ", "राम": "रम", "Siobhán": "siobhan",
                            "민수": "민수".decomposedStringWithCanonicalMapping,
                        ].map { text, folded in
                            """
                            INSERT INTO vocabulary (user_id, folded, text, source, added_at)
                            VALUES ('\(Self.alice.lowercased)', '\(folded)', '\(text)', 'you', 1)
                            """
                        })
                }
            }
            #expect(try await Migrator.currentVersion(driver) == Migrator.all.last?.version)
            // And the vocabulary's keys keep the marks of other scripts, so a name they tell apart can join the list
            // And every entry that teaches a word is noted as its teacher: the harbour's title names its boats
            let teachers = try await Self.rows(driver, "SELECT folded, entry_id, source FROM vocabulary_teachers ORDER BY folded")
            #expect(
                try teachers.map {
                    [
                        try $0.decode(column: "folded", as: String.self), try $0.decode(column: "entry_id", as: String.self),
                        try $0.decode(column: "source", as: String.self),
                    ]
                } == [["boats", Self.harbour.lowercased, "title"], ["seaside", Self.harbour.lowercased, "tag"]])
            // (compared byte for byte: a Hangul key kept decomposed equals the composed one as a Swift string)
            let keys = try await Self.rows(driver, "SELECT folded FROM vocabulary ORDER BY folded")
            #expect(
                Set(try keys.map { Array(try $0.decode(column: "folded", as: String.self).utf8) })
                    == Set(["siobhan", "ガナ", "राम", "민수"].map { Array($0.precomposedStringWithCanonicalMapping.utf8) }))
            // And a rate limit's schedule is counted in microseconds
            let schedules = try await Self.rows(driver, "SELECT tat FROM rate_limits")
            #expect(try schedules.map { try $0.decode(column: "tat", as: Int.self) } == [5_000])
            // And each account's kept storage total starts from what it keeps: alice's two live entries' words
            let used = try await Self.rows(driver, "SELECT used_bytes FROM users WHERE id = '\(Self.alice.lowercased)'")
            let words = "A winter evening by the fire.".utf8.count * 2 + "Walked along the harbour with Mira.".utf8.count * 2
            let labels = "Boats at dusk".utf8.count + #"["seaside"]"#.utf8.count
            #expect(try used.first?.decode(column: "used_bytes", as: Int.self) == words + labels)

            // Then addresses an Apple or Google account vouched for are confirmed, others not; a sign-in whose address
            // nobody confirmed is gone, the password stays
            let users = try await Self.rows(driver, "SELECT id, email_verified_at, password_hash FROM users")
            let unconfirmed = Dictionary(
                uniqueKeysWithValues: try users.map {
                    (try $0.decode(column: "id", as: String.self), try $0.decodeNil(column: "email_verified_at"))
                })
            #expect(unconfirmed[Self.alice.lowercased] == true && unconfirmed[Self.dave.lowercased] == true)
            #expect(unconfirmed[Self.bob.lowercased] == false && unconfirmed[Self.carol.lowercased] == false)
            let identities = try await Self.rows(driver, "SELECT subject FROM identities ORDER BY subject")
            #expect(try identities.map { try $0.decode(column: "subject", as: String.self) } == ["apple-bob", "google-carol"])
            // And the upload still waiting gets a day from its last change; finished jobs forget what they carried
            let upload = try #require(
                try await Self.rows(driver, "SELECT upload_expires_at FROM entries WHERE id = '\(Self.waiting.lowercased)'").first
            )
            #expect(try upload.decode(column: "upload_expires_at", as: Int.self) == Self.created + 5 + 86_400_000)
            let jobs = try await Self.rows(driver, "SELECT id, payload FROM jobs ORDER BY id")
            #expect(
                try jobs.map { try $0.decode(column: "payload", as: String.self) } == ["{}", #"{"entry_id":"y"}"#])
            // And each entry has its day in its own time zone and its text counted
            let days = try await Self.rows(
                driver, "SELECT id, local_day, text_bytes FROM entries WHERE id = '\(Self.fireside.lowercased)'")
            #expect(try days.first?.decode(column: "local_day", as: Int.self) == 20_260_317)
            #expect(try days.first?.decode(column: "text_bytes", as: Int.self) ?? 0 > 0)
        }

        // And the server serves the diary: the owner signs in with her password, lists and searches her words
        try await server.run { api in
            let login = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": "alice@example.com", "password": "alice's passphrase"])
            try #require(login.status == .ok, "\(login.text)")
            let token = APIClient.session(login).accessToken
            let listed = try #require(
                try await api.send(.get, "/v1/entries?limit=10", token: token).json["entries"] as? [[String: Any]])
            #expect(
                Set(listed.compactMap { $0["id"] as? String })
                    == Set([Self.fireside, Self.waiting, Self.harbour].map(\.lowercased)))
            let fireside = listed.first { $0["id"] as? String == Self.fireside.lowercased }
            #expect(fireside?["transcript_clean"] as? String == "A winter evening by the fire.")
            for (words, found) in [
                ("harbour", [Self.harbour]), ("fire", [Self.fireside]), ("forgotten", []), ("boats", [Self.harbour]),
                ("seaside", [Self.harbour]), ("dusk+fire", []),
            ] {
                let hits = try await api.send(.get, "/v1/search?q=\(words)", token: token).json["hits"] as? [[String: Any]]
                let ids = hits?.compactMap { ($0["entry"] as? [String: Any])?["id"] as? String }
                #expect(ids == found.map(\.lowercased), "\(words)")
            }
            let exports = try await api.send(.get, "/v1/exports", token: token).json["exports"] as? [[String: Any]]
            #expect(exports?.count == 1)
        }
    }

    /// Applies the migrations up to `version`.
    private static func upTo(_ version: Int, _ driver: any DatabaseDriver) async throws {
        _ = try await Migrator.apply(Migrator.all.filter { $0.version <= version }, to: driver)
    }

    private static func write(_ driver: any DatabaseDriver, _ statements: [String]) async throws {
        try await driver.write { db in
            for statement in statements { try await db.raw(SQLQueryString(statement)).run() }
        }
    }

    private static func rows(_ driver: any DatabaseDriver, _ query: String) async throws -> [any SQLRow] {
        try await driver.read { db in try await db.raw(SQLQueryString(query)).all() }
    }

    private static func job(_ id: String, state: String, payload: String) -> String {
        """
        INSERT INTO jobs (id, kind, payload, state, max_attempts, run_at, created_at, updated_at)
        VALUES ('\(id)', 'transcribe', '\(payload)', '\(state)', 5, 1, 1, 1)
        """
    }

    /// Alice has a password and four entries: written, waiting for its upload, spoken and transcribed, deleted. Bob
    /// signs in with Apple; Carol and Dave with passwords.
    private static func firstVersionRows(passwordHash: String) -> [String] {
        let users = [
            (alice, "alice@example.com", "'\(passwordHash)'"), (bob, "bob@example.com", "NULL"),
            (carol, "carol@example.com", "'\(passwordHash)'"), (dave, "dave@example.com", "'\(passwordHash)'"),
        ]
        let entries = [
            (fireside, "text", "transcribed", "'A winter evening by the fire.'", "NULL"),
            (waiting, "audio", "pending_upload", "NULL", "NULL"),
            (harbour, "audio", "transcribed", "'Walked along the harbour with Mira.'", "NULL"),
            (deleted, "text", "transcribed", "'Forgotten words.'", "\(created + 9)"),
        ]
        return users.map { id, email, hash in
            "INSERT INTO users (id, email, password_hash, created_at) VALUES ('\(id.lowercased)', '\(email)', \(hash), \(created))"
        }
            + [
                "INSERT INTO identities (provider, subject, user_id, created_at) VALUES ('apple', 'apple-bob', '\(bob.lowercased)', 1)"
            ]
            + entries.map { id, kind, status, text, deletedAt in
                """
                INSERT INTO entries (id, user_id, created_at, tz, duration_s, kind, status, filename, tags, transcript_raw,
                    transcript_clean, change_seq, updated_at, deleted_at)
                VALUES ('\(id.lowercased)', '\(alice.lowercased)', 1773802800000, 'America/New_York', 0, '\(kind)', '\(status)',
                    'x', '[]', \(text), \(text), 1, \(created + 5), \(deletedAt))
                """
            }
    }
}
