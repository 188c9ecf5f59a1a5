import Crypto
import Foundation
import HTTPTypes
import Testing

@testable import MyDayServer

/// Sign in with Apple and Google against key sets served on loopback, with tokens signed in the test.
@Suite(.serialized) struct SignInWithProviderTests {
    typealias Provider = IdentityProviderStandIn

    private func run(
        _ database: TestDatabase, refetchInterval: Duration = .seconds(10),
        _ body: @escaping @Sendable (APIClient, TestServer, Provider) async throws -> Void
    ) async throws {
        let provider = Provider()
        try await provider.serve { configure in
            let server = try await TestServer.make(database) {
                configure(&$0)
                $0.providerKeysRefetchInterval = refetchInterval
            }
            try await server.run { api in try await body(api, server, provider) }
        }
    }

    private func userCount(_ server: TestServer) async throws -> Int {
        try await server.withDatabase { db in
            try await db.read { try await $0.raw("SELECT COUNT(*) AS n FROM users").first()!.decode(column: "n", as: Int.self) }
        }
    }

    @Test(arguments: TestDatabase.available)
    func validAppleAndGoogleTokensSignUpThenSignIn(_ database: TestDatabase) async throws {
        try await run(database) { api, server, _ in
            // Given an Apple token with a nonce and the name Apple sends on the first sign-in only
            let apple = Provider.appleClaims(nonce: "raw-nonce-1")
            let first = try await api.send(
                .post, "/v1/auth/apple",
                json: ["identity_token": try await Provider.appleToken(apple), "nonce": "raw-nonce-1", "name": "Ada Lovelace"])
            #expect(first.status == .created, "\(first.text)")
            let user = try #require(first.json["user"] as? [String: Any])
            #expect(user["email"] as? String == apple.email)
            #expect(user["name"] as? String == "Ada Lovelace")
            #expect(user["has_password"] as? Bool == false)

            // When the same Apple user signs in again, without a name, then it is the same account and the name stays
            var again = apple
            again.nonce = Provider.sha256Hex("raw-nonce-2")
            let second = try await api.send(
                .post, "/v1/auth/apple", json: ["identity_token": try await Provider.appleToken(again), "nonce": "raw-nonce-2"])
            #expect(second.status == .ok)
            #expect((second.json["user"] as? [String: Any])?["id"] as? String == user["id"] as? String)
            let me = try await api.send(.get, "/v1/me", token: APIClient.session(second).accessToken)
            #expect(me.json["name"] as? String == "Ada Lovelace")

            // And a Google token signs up and in the same way
            let google = try await Provider.googleToken(Provider.googleClaims())
            #expect(try await api.send(.post, "/v1/auth/google", json: ["id_token": google]).status == .created)
            #expect(try await api.send(.post, "/v1/auth/google", json: ["id_token": google]).status == .ok)
            #expect(try await userCount(server) == 2)
        }
    }

    @Test(arguments: TestDatabase.available)
    func everyBadTokenIs401AndCreatesNoUser(_ database: TestDatabase) async throws {
        try await run(database) { api, server, _ in
            let now = Int(Date().timeIntervalSince1970)
            var wrongIssuer = Provider.appleClaims()
            wrongIssuer.iss = "https://appleid.apple.com.evil.example"
            var wrongAudience = Provider.appleClaims()
            wrongAudience.aud = "com.someone.else"
            var expired = Provider.appleClaims()
            (expired.iat, expired.exp) = (now - 7200, now - 3600)
            let claims = Provider.appleClaims()
            var noNonce = Provider.appleClaims()
            noNonce.nonce = nil
            let publicKeyPEM = Provider.appleKey.publicKey.pemRepresentation
            var googleWrongIssuer = Provider.googleClaims()
            googleWrongIssuer.iss = "https://accounts.google.com.example"
            var googleUnverified = Provider.googleClaims()
            googleUnverified.emailVerified = "false"

            let cases: [(String, String, [String: String])] = [
                ("wrong iss", "/v1/auth/apple", ["identity_token": try await Provider.appleToken(wrongIssuer)]),
                ("wrong aud", "/v1/auth/apple", ["identity_token": try await Provider.appleToken(wrongAudience)]),
                ("expired", "/v1/auth/apple", ["identity_token": try await Provider.appleToken(expired)]),
                (
                    "wrong signature", "/v1/auth/apple",
                    ["identity_token": try await Provider.appleToken(claims, key: Provider.strangerKey)]
                ),
                (
                    "unknown kid", "/v1/auth/apple",
                    ["identity_token": try await Provider.appleToken(claims, key: Provider.strangerKey, kid: "apple-9")]
                ),
                (
                    "alg none", "/v1/auth/apple",
                    [
                        "identity_token": try Provider.forged(header: #"{"alg":"none","kid":"apple-1"}"#, claims: claims) { _ in
                            Data()
                        }
                    ]
                ),
                (
                    "HS256 keyed with the public key", "/v1/auth/apple",
                    [
                        "identity_token": try Provider.forged(
                            header: #"{"alg":"HS256","kid":"apple-1","typ":"JWT"}"#, claims: claims
                        ) {
                            Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: Data(publicKeyPEM.utf8))))
                        }
                    ]
                ),
                (
                    "nonce of another request", "/v1/auth/apple",
                    [
                        "identity_token": try await Provider.appleToken(Provider.appleClaims(nonce: "the real nonce")),
                        "nonce": "another nonce",
                    ]
                ),
                (
                    "nonce missing", "/v1/auth/apple",
                    ["identity_token": try await Provider.appleToken(Provider.appleClaims(nonce: "the real nonce"))]
                ),
                (
                    "Apple: no nonce in the token or the request", "/v1/auth/apple",
                    ["identity_token": try await Provider.appleToken(noNonce)]
                ),
                ("Google: wrong iss", "/v1/auth/google", ["id_token": try await Provider.googleToken(googleWrongIssuer)]),
                ("Google: an Apple token", "/v1/auth/google", ["id_token": try await Provider.appleToken(claims)]),
                ("not a JWT", "/v1/auth/google", ["id_token": "not-a-token"]),
            ]
            for (name, path, body) in cases {
                let reply = try await api.send(.post, path, json: body)
                #expect(reply.status == .unauthorized, "\(name): \(reply.status) \(reply.text)")
                #expect(reply.errorCode == "unauthorized", "\(name)")
            }
            // And an unverified Google email is no basis for an account
            let unverified = try await api.send(
                .post, "/v1/auth/google", json: ["id_token": try await Provider.googleToken(googleUnverified)])
            #expect(unverified.status == .unprocessableContent)
            #expect(try await userCount(server) == 0)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aProviderEmailDoesNotTakeOverAPasswordAccountButTheOwnerCanLinkIt(_ database: TestDatabase) async throws {
        try await run(database) { api, server, _ in
            // Given an email-and-password account whose address is confirmed (ADR 0029: an unconfirmed one is claimed)
            let owner = try await api.register("shared@gmail.com")
            try await server.markAddressConfirmed(userID: owner.userID)
            let google = Provider.googleClaims(email: "shared@gmail.com")
            let token = try await Provider.googleToken(google)

            // When a Google token with the same verified email signs in, then it gets no session into that account
            let takeover = try await api.send(.post, "/v1/auth/google", json: ["id_token": token])
            #expect(takeover.status == .conflict)
            #expect(takeover.json["access_token"] == nil)
            #expect(try await userCount(server) == 1)

            // When the owner, signed in, links that Google account, then Google signs in to the owner's account
            let linked = try await api.send(
                .post, "/v1/me/identities/google", token: owner.accessToken, json: ["token": token])
            #expect(linked.status == .created, "\(linked.text)")
            #expect(
                try await api.send(.post, "/v1/me/identities/google", token: owner.accessToken, json: ["token": token]).status
                    == .ok)
            let signIn = try await api.send(.post, "/v1/auth/google", json: ["id_token": token])
            #expect(signIn.status == .ok)
            #expect(APIClient.session(signIn).userID == owner.userID)
            let identities = try await api.send(.get, "/v1/me/identities", token: owner.accessToken)
            #expect(identities.text.contains("\"google\"") && identities.text.contains("\"email\""))

            // And another account cannot link the same Google identity
            let other = try await api.register()
            let stolen = try await api.send(.post, "/v1/me/identities/google", token: other.accessToken, json: ["token": token])
            #expect(stolen.status == .conflict)

            // When the owner unlinks Google, then Google no longer signs in to the account
            #expect(try await api.send(.delete, "/v1/me/identities/google", token: owner.accessToken).status == .noContent)
            #expect(try await api.send(.delete, "/v1/me/identities/google", token: owner.accessToken).status == .notFound)
            #expect(try await api.send(.post, "/v1/auth/google", json: ["id_token": token]).status == .conflict)
        }
    }

    @Test func linkingNeedsARecentSignInAndTheLastWayInStays() async throws {
        try await run(.sqlite) { api, server, _ in
            // Given a Google-only account
            let claims = Provider.googleClaims()
            let signUp = try await api.send(.post, "/v1/auth/google", json: ["id_token": try await Provider.googleToken(claims)])
            let session = APIClient.session(signUp)
            // Then its only identity cannot be removed
            let last = try await api.send(.delete, "/v1/me/identities/google", token: session.accessToken)
            #expect(last.status == .conflict)

            // Given an access token refreshed from a sign-in ten minutes ago
            let secret = try SigningSecret.load(configured: server.configuration.secret, file: server.configuration.secretFile)
            let me = try await api.send(.get, "/v1/me", token: session.accessToken).json
            let user = UserRecord(
                id: UUID(uuidString: session.userID)!, email: me["email"] as! String, name: nil, hasPassword: false,
                createdAt: Date(), tokenVersion: 0)
            let stale = try await AccessTokens(secret: secret, lifetime: .seconds(900))
                .make(for: user, signedInAt: Date().addingTimeInterval(-600))
            // Then it can neither link Apple nor close the account with an old Google token
            let apple = try await Provider.appleToken(Provider.appleClaims())
            let link = try await api.send(
                .post, "/v1/me/identities/apple", token: stale, json: ["token": apple, "nonce": Provider.appleNonce])
            #expect(link.status == .forbidden && link.errorCode == "reauthentication_needed")
            var old = claims
            old.iat -= 3600
            let oldGoogle = try await Provider.googleToken(old)
            #expect(
                try await api.send(.delete, "/v1/me", token: stale, json: ["provider": "google", "token": oldGoogle]).status
                    == .forbidden)
            #expect(try await api.send(.get, "/v1/me", token: stale).status == .ok)

            // But a Google sign-in made just now is proof enough
            let fresh = try await Provider.googleToken(claims)
            #expect(
                try await api.send(.delete, "/v1/me", token: stale, json: ["provider": "google", "token": fresh]).status
                    == .accepted)
        }
    }

    @Test func aGoogleNonceMustMatch() async throws {
        try await run(.sqlite) { api, _, _ in
            var claims = Provider.googleClaims()
            claims.nonce = "nonce-from-the-app"
            let token = try await Provider.googleToken(claims)
            #expect(
                try await api.send(.post, "/v1/auth/google", json: ["id_token": token, "nonce": "another"]).status
                    == .unauthorized)
            #expect(try await api.send(.post, "/v1/auth/google", json: ["id_token": token]).status == .unauthorized)
            #expect(
                try await api.send(.post, "/v1/auth/google", json: ["id_token": token, "nonce": "nonce-from-the-app"]).status
                    == .created)
        }
    }

    @Test func madeUpKeyIdsDoNotMakeTheServerFetchOverAndOver() async throws {
        try await run(.sqlite) { api, _, provider in
            for attempt in 1...5 {
                let token = try await Provider.appleToken(
                    Provider.appleClaims(), key: Provider.strangerKey, kid: "made-up-\(attempt)")
                #expect(try await api.send(.post, "/v1/auth/apple", json: ["identity_token": token]).status == .unauthorized)
            }
            #expect(provider.fetches.withLock { $0["apple"] } == 1)
        }
    }

    @Test func rotatedProviderKeysAreFetchedWhenATokenNamesANewKey() async throws {
        try await run(.sqlite, refetchInterval: .zero) { api, _, provider in
            // Given a server that has fetched Apple's keys once
            let first = try await Provider.appleToken(Provider.appleClaims())
            let signIn = ["identity_token": first, "nonce": Provider.appleNonce]
            #expect(try await api.send(.post, "/v1/auth/apple", json: signIn).status == .created)
            #expect(try await api.send(.post, "/v1/auth/apple", json: signIn).status == .ok)
            #expect(provider.fetches.withLock { $0["apple"] } == 1)

            // When Apple rotates its keys and a token names the new key
            provider.appleRotated.withLock { $0 = true }
            let rotated = try await Provider.appleToken(Provider.appleClaims(), key: Provider.rotatedAppleKey, kid: "apple-2")

            // Then the server fetches the key set again and accepts it
            #expect(
                try await api.send(.post, "/v1/auth/apple", json: ["identity_token": rotated, "nonce": Provider.appleNonce])
                    .status == .created)
            #expect(provider.fetches.withLock { $0["apple"] } == 2)
        }
    }
}

/// The web app's provider sign-ins: the same verification, with the session in the cookie (ADR 0015).
@Suite(.serialized) struct WebProviderSignInTests {
    typealias Provider = IdentityProviderStandIn

    @Test func appleAndGoogleOnTheWebSetTheCookieAndRefuseForgeries() async throws {
        let provider = Provider()
        try await provider.serve { configure in
            let server = try await TestServer.make(.sqlite) { configure(&$0) }
            try await server.run { api in
                let web: HTTPFields = [.xMyDayWeb: "1", .contentType: "application/json"]
                let apple = try await Provider.appleToken(Provider.appleClaims(nonce: "web-nonce"))
                let signedUp = try await api.send(
                    .post, "/v1/auth/web/apple", json: ["identity_token": apple, "nonce": "web-nonce"], headers: web)
                #expect(signedUp.status == .created, "\(signedUp.text)")
                #expect(signedUp.json["refresh_token"] == nil && signedUp.json["access_token"] is String)
                #expect(signedUp.headers[.setCookie]?.contains("HttpOnly") == true)
                let google = try await Provider.googleToken(Provider.googleClaims())
                let viaGoogle = try await api.send(.post, "/v1/auth/web/google", json: ["id_token": google], headers: web)
                #expect(viaGoogle.status == .created)
                #expect(viaGoogle.headers[.setCookie]?.hasPrefix("myday_refresh=") == true)
                // A token for the wrong nonce is refused, and no cookie is set
                let wrong = try await api.send(
                    .post, "/v1/auth/web/apple", json: ["identity_token": apple, "nonce": "another"], headers: web)
                #expect(wrong.status == .unauthorized)
                #expect(wrong.headers[.setCookie] == nil)
                // Without the web header, refused before any verification
                #expect(try await api.send(.post, "/v1/auth/web/google", json: ["id_token": google]).status == .forbidden)
            }
        }
    }
}
