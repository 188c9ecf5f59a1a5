import Foundation
import HTTPTypes
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// Signing out everywhere, changing the password, and deleting the account with everything in it.
@Suite(.serialized) struct AccountTests {
    @Test(arguments: TestDatabase.available)
    func logoutAllKillsEveryLoginAndItsAccessTokens(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            // Given one account signed in on two devices
            let phone = try await api.register("two@example.com")
            let laptop = APIClient.session(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "two@example.com", "password": "correct horse battery"]))

            // When the phone signs out everywhere
            #expect(try await api.send(.post, "/v1/auth/logout-all", token: phone.accessToken).status == .noContent)

            // Then no access token and no refresh token of either device works, though the access tokens are unexpired
            for session in [phone, laptop] {
                #expect(try await api.send(.get, "/v1/me", token: session.accessToken).status == .unauthorized)
                #expect(
                    try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": session.refreshToken]).status
                        == .unauthorized)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func changingThePasswordEndsEveryOtherSession(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let phone = try await api.register("change@example.com", password: "the first passphrase")
            let laptop = APIClient.session(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "change@example.com", "password": "the first passphrase"]))

            // Wrong current passwords and weak new ones change nothing
            let wrong = try await api.send(
                .post, "/v1/me/password", token: phone.accessToken,
                json: ["current_password": "not it at all", "new_password": "a brand new passphrase"])
            #expect(wrong.status == .forbidden && wrong.errorCode == "reauthentication_needed")
            for weak in ["password1", "Qwerty123", "short", "change@example.com"] {
                let reply = try await api.send(
                    .post, "/v1/me/password", token: phone.accessToken,
                    json: ["current_password": "the first passphrase", "new_password": weak])
                #expect(reply.status == .unprocessableContent, "\(weak): \(reply.text)")
            }
            #expect(try await api.send(.get, "/v1/me", token: laptop.accessToken).status == .ok)

            // When the phone changes the password
            let changed = try await api.send(
                .post, "/v1/me/password", token: phone.accessToken,
                json: ["current_password": "the first passphrase", "new_password": "a brand new passphrase"])
            #expect(changed.status == .ok)
            let fresh = APIClient.session(changed)

            // Then the laptop's tokens are dead, the phone goes on with the new session, and only the new password works
            #expect(try await api.send(.get, "/v1/me", token: laptop.accessToken).status == .unauthorized)
            #expect(
                try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": laptop.refreshToken]).status
                    == .unauthorized)
            #expect(try await api.send(.get, "/v1/me", token: phone.accessToken).status == .unauthorized)
            #expect(try await api.send(.get, "/v1/me", token: fresh.accessToken).status == .ok)
            #expect(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "change@example.com", "password": "the first passphrase"]
                ).status == .unauthorized)
            #expect(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "change@example.com", "password": "a brand new passphrase"]
                ).status == .ok)
        }
    }

    @Test func closingTheAccountNeedsARecentSignInOrThePassword() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            let session = try await api.register("old@example.com", password: "my own passphrase")
            // Given a sign-in ten minutes ago, and an access token refreshed from it just now
            let secret = try SigningSecret.load(configured: server.configuration.secret, file: server.configuration.secretFile)
            let tokens = await AccessTokens(secret: secret, lifetime: .seconds(15 * 60))
            let user = UserRecord(
                id: UUID(uuidString: session.userID)!, email: "old@example.com", name: nil, hasPassword: true, createdAt: Date(),
                tokenVersion: 0)
            let oldToken = try await tokens.make(for: user, signedInAt: Date().addingTimeInterval(-600))
            #expect(try await api.send(.get, "/v1/me", token: oldToken).status == .ok)

            // Then it cannot close the account alone, nor with a wrong password
            let bare = try await api.send(.delete, "/v1/me", token: oldToken)
            #expect(bare.status == .forbidden && bare.errorCode == "reauthentication_needed", "\(bare.status) \(bare.text)")
            let wrong = try await api.send(.delete, "/v1/me", token: oldToken, json: ["password": "a wrong guess"])
            #expect(wrong.status == .forbidden)
            #expect(try await api.send(.get, "/v1/me", token: oldToken).status == .ok)

            // But with the password it can, and from then on nothing signs in
            #expect(
                try await api.send(.delete, "/v1/me", token: oldToken, json: ["password": "my own passphrase"]).status
                    == .accepted)
            #expect(try await api.send(.get, "/v1/me", token: session.accessToken).status == .unauthorized)
            #expect(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "old@example.com", "password": "my own passphrase"]
                )
                .status == .unauthorized)
            #expect(
                try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": session.refreshToken]).status
                    == .unauthorized)
        }
    }

    @Test(arguments: TestDatabase.available)
    func deletingTheAccountLeavesNoRowAndNoBlobOfItAndTouchesNobodyElse(_ database: TestDatabase) async throws {
        // Given two users with uploaded audio, on a server that runs no jobs yet
        let server = try await TestServer.make(database)
        let (leaving, staying) = try await server.run { api in
            let leaving = try await api.register()
            let staying = try await api.register()
            for session in [leaving, staying] {
                try await api.createUploadedEntry(session)
                try await api.createUploadedEntry(session)
            }
            // When the first closes the account
            #expect(try await api.send(.delete, "/v1/me", token: leaving.accessToken).status == .accepted)
            return (leaving, staying)
        }
        #expect(try await server.rows(of: leaving.userID) > 0)

        // Then once a worker runs, nothing of it remains, in the database or in the blob store
        var working = server.configuration
        working.workers = 1
        try await TestServer(configuration: working).run { api in
            try await server.withDatabase { driver in
                try await pollUntil("the account's rows are gone", every: .milliseconds(50)) {
                    try await TestServer.rows(of: leaving.userID, in: driver) == 0
                }
            }
            #expect(!server.storedBlobs().contains { $0.contains(leaving.userID) })
            // And the other user's entries and audio are all there
            let page = try await api.send(.get, "/v1/entries", token: staying.accessToken)
            #expect((page.json["entries"] as? [Any])?.count == 2)
            #expect(server.storedBlobs().filter { $0.contains(staying.userID) }.count == 2)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aDeletionInterruptedAfterTheBlobsFinishesWhenItRunsAgain(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        let leaving = try await server.run { api in
            let leaving = try await api.register()
            try await api.createUploadedEntry(leaving)
            #expect(try await api.send(.delete, "/v1/me", token: leaving.accessToken).status == .accepted)
            return leaving
        }
        try await server.withDatabase { driver in
            let queue = JobQueue(driver: driver)
            let handler = AccountDeletionHandler(
                users: UserStore(driver: driver), blobs: try DiskBlobStore(root: server.configuration.blobDirectory),
                logger: .init(label: "test"))
            // Given a run that removed the blobs and then died before its transaction
            let first = try #require(
                try await queue.claim(kinds: [AccountDeletionHandler.kind], workerID: "w1", lease: .milliseconds(1)))
            _ = try await handler.run(first)
            #expect(server.storedBlobs().isEmpty)
            #expect(try await server.rows(of: leaving.userID) > 0)

            // When the job's lease has run out and it runs again, then everything is gone
            let second = try #require(
                try await queue.claim(
                    kinds: [AccountDeletionHandler.kind], workerID: "w2", lease: .seconds(60), now: Date().addingTimeInterval(5)))
            #expect(second.id == first.id)
            let completion = try await handler.run(second)
            #expect(try await queue.succeed(second, workerID: "w2", alsoDo: completion))
            #expect(try await server.rows(of: leaving.userID) == 0)
        }
    }
}

extension TestServer {
    /// Rows anywhere in the database that belong to the user or name them.
    func rows(of userID: String) async throws -> Int {
        try await withDatabase { try await Self.rows(of: userID, in: $0) }
    }

    /// Rows anywhere in `driver`'s database that belong to the user or name them.
    static func rows(of userID: String, in driver: any DatabaseDriver) async throws -> Int {
        try await driver.read { db in
            var total = 0
            for (table, column) in [
                ("users", "id"), ("identities", "user_id"), ("refresh_tokens", "user_id"), ("entries", "user_id"),
                ("jobs", "user_id"), ("exports", "user_id"), ("vocabulary", "user_id"), ("vocabulary_teachers", "user_id"),
            ] {
                total += try await db.raw(
                    "SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) = \(bind: userID)"
                )
                .first()!.decode(column: "n", as: Int.self)
            }
            total += try await db.raw(
                "SELECT COUNT(*) AS n FROM jobs WHERE payload LIKE \(bind: "%\(userID)%")"
            ).first()!.decode(column: "n", as: Int.self)
            total += try await db.raw(
                "SELECT COUNT(*) AS n FROM rate_limits WHERE key LIKE \(bind: "%\(userID)%")"
            ).first()!.decode(column: "n", as: Int.self)
            return total
        }
    }
}
