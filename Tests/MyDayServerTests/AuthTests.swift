import Foundation
import HTTPTypes
import SQLKit
import Testing

@testable import MyDayServer

@Suite(.serialized) struct AuthTests {
    @Test(arguments: TestDatabase.available)
    func registerLoginAndMe(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            // Given a new account
            let session = try await api.register("Ada@Example.com", password: "a long enough password")
            #expect(!session.accessToken.isEmpty && !session.refreshToken.isEmpty)

            // When it signs in again, with the email in another case
            let login = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": "ada@example.com", "password": "a long enough password"])

            // Then it gets a session for the same user, and /v1/me names it
            #expect(login.status == .ok)
            #expect(login.headers[.cacheControl] == "no-store" && login.headers[.init("X-Content-Type-Options")!] == "nosniff")
            #expect((login.json["user"] as? [String: Any])?["id"] as? String == session.userID)
            #expect(login.json["token_type"] as? String == "Bearer")
            #expect((login.json["expires_in"] as? Int ?? 0) <= 900)

            // And the access token is a JWT of whole-second times, valid for at most 15 minutes
            let payload = String(session.accessToken.split(separator: ".").dropFirst().first ?? "")
            let payloadData = try #require(Data(base64URLEncoded: payload))
            let claims = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
            let issued = try #require(claims["iat"] as? Int)
            let expires = try #require(claims["exp"] as? Int)
            #expect(expires - issued <= 900 && expires > issued)
            #expect(claims["sub"] as? String == session.userID)
            let me = try await api.send(.get, "/v1/me", token: APIClient.session(login).accessToken)
            #expect(me.status == .ok)
            #expect(me.json["email"] as? String == "ada@example.com")
        }
    }

    @Test(arguments: TestDatabase.available)
    func wrongPasswordAndUnknownEmailLookAlike(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            _ = try await api.register("known@example.com", password: "the right password")
            let wrong = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": "known@example.com", "password": "the wrong password"])
            let unknown = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": "nobody@example.com", "password": "the wrong password"])
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(wrong.body == unknown.body)
        }
    }

    @Test(arguments: TestDatabase.available)
    func registrationRejectsBadInputAndChangesNothing(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            _ = try await api.register("taken@example.com")
            let cases: [(json: Any?, raw: String?, status: Int, code: String)] = [
                (["email": "taken@example.com", "password": "another password"], nil, 409, "conflict"),
                (["email": "not-an-email", "password": "long enough"], nil, 422, "invalid_value"),
                (["email": "short@example.com", "password": "1234567"], nil, 422, "invalid_value"),
                (["email": "long@example.com", "password": String(repeating: "x", count: 129)], nil, 422, "invalid_value"),
                (["email": "spaces@example.com", "password": String(repeating: " ", count: 12)], nil, 422, "invalid_value"),
                (["email": "padded@example.com", "password": "    abc     "], nil, 422, "invalid_value"),
                (["email": "extra@example.com", "password": "long enough", "admin": true], nil, 400, "invalid_request"),
                (["email": "missing@example.com"], nil, 400, "invalid_request"),
                (["email": 42, "password": "long enough"], nil, 400, "invalid_request"),
                (nil, "{\"email\": ", 400, "invalid_request"),
            ]
            for (json, raw, status, code) in cases {
                let reply = try await api.send(
                    .post, "/v1/auth/email/register", json: json, rawBody: raw.map { Data($0.utf8) },
                    headers: raw == nil ? [:] : [.contentType: "application/json"])
                #expect(reply.status.code == status, "\(String(describing: json ?? raw as Any)) → \(reply.status) \(reply.text)")
                #expect(reply.errorCode == code)
                #expect(reply.json["error"] != nil && !reply.text.contains("Swift"))
            }
        }
        let users = try await server.withDatabase { db in
            try await db.read { try await $0.raw("SELECT COUNT(*) AS n FROM users").first()!.decode(column: "n", as: Int.self) }
        }
        #expect(users == 1)
    }

    @Test(arguments: TestDatabase.available)
    func refreshRotatesAndReuseRevokesTheLogin(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let first = try await api.register()

            // When the refresh token is traded, a new one comes back
            let rotated = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": first.refreshToken])
            #expect(rotated.status == .ok)
            let second = APIClient.session(rotated)
            #expect(second.refreshToken != first.refreshToken)
            #expect(try await api.send(.get, "/v1/me", token: second.accessToken).status == .ok)

            // And the victim's device moves on with it
            let third = APIClient.session(
                try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": second.refreshToken]))
            #expect(!third.refreshToken.isEmpty)

            // Then a thief presenting the stolen first token revokes the whole login: the victim's token dies too
            let replay = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": first.refreshToken])
            #expect(replay.status == .unauthorized)
            let afterReplay = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": third.refreshToken])
            #expect(afterReplay.status == .unauthorized)
        }
    }

    @Test(arguments: TestDatabase.available)
    func refreshingDoesNotMakeASignInLastForever(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            // Given a sign-in a thief keeps refreshing
            var session = try await api.register()
            for _ in 0..<3 {
                session = APIClient.session(
                    try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": session.refreshToken]))
            }
            // When 31 days have passed since the sign-in (every stored time moved back)
            let month = 31 * 24 * 3_600_000
            try await server.withDatabase { driver in
                try await driver.write { db in
                    try await db.raw(
                        """
                        UPDATE refresh_tokens SET created_at = created_at - \(bind: month),
                            expires_at = expires_at - \(bind: month), used_at = used_at - \(bind: month)
                        """
                    ).run()
                }
            }
            // Then the newest token no longer works: the sign-in ended 30 days after it happened
            let late = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": session.refreshToken])
            #expect(late.status == .unauthorized)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aLostRefreshAnswerMayBeRetriedWithinTheGraceWindow(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let first = try await api.register()
            // Given a refresh whose answer the client never got
            #expect(try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": first.refreshToken]).status == .ok)

            // When the client retries at once with the same token, then it is answered, and the answer works
            let retry = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": first.refreshToken])
            #expect(retry.status == .ok)
            let next = try await api.send(
                .post, "/v1/auth/refresh", json: ["refresh_token": APIClient.session(retry).refreshToken])
            #expect(next.status == .ok)
        }
    }

    @Test(arguments: TestDatabase.available)
    func logoutEndsTheLogin(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let session = try await api.register()
            #expect(
                try await api.send(.post, "/v1/auth/logout", json: ["refresh_token": session.refreshToken]).status == .noContent)
            #expect(
                try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": session.refreshToken]).status
                    == .unauthorized)
            #expect(try await api.send(.post, "/v1/auth/logout", json: ["refresh_token": "unknown"]).status == .noContent)
        }
    }

    @Test func missingInvalidAndExpiredBearerTokensAre401() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            let session = try await api.register()
            #expect(try await api.send(.get, "/v1/me").status == .unauthorized)
            #expect(try await api.send(.get, "/v1/me", token: "not.a.jwt").status == .unauthorized)
            let tampered = String(session.accessToken.dropLast(2)) + (session.accessToken.hasSuffix("AA") ? "BB" : "AA")
            #expect(try await api.send(.get, "/v1/me", token: tampered).status == .unauthorized)
            #expect(try await api.send(.get, "/v1/me", headers: [.authorization: "Basic dXNlcjpwYXNz"]).status == .unauthorized)

            // Given a token the server's own key signed sixteen minutes ago, with its fifteen-minute lifetime
            let userID = try #require(UUID(uuidString: session.userID))
            let found = try await server.withDatabase { try await UserStore(driver: $0).user(id: userID) }
            let user = try #require(found)
            let tokens = await AccessTokens(
                secret: Array(try #require(server.configuration.secret).utf8), lifetime: server.configuration.accessTokenLifetime)
            let sixteenMinutesAgo = Date().addingTimeInterval(-16 * 60)
            let expired = try await tokens.make(for: user, signedInAt: sixteenMinutesAgo, now: sixteenMinutesAgo)
            let fresh = try await tokens.make(for: user, signedInAt: Date())

            // Then it no longer opens the API, while the same key's fresh token does
            #expect(try await api.send(.get, "/v1/me", token: fresh).status == .ok)
            let reply = try await api.send(.get, "/v1/entries", token: expired)
            #expect(reply.status == .unauthorized && reply.errorCode == "unauthorized", "\(reply.text)")
            #expect(reply.errorMessage?.isEmpty == false)
        }
    }
}
