import Configuration
import Foundation
import HTTPTypes
import JWTKit
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// Closing an account, or unlinking Apple, revokes the Sign in with Apple authorization (App Store Review Guideline
/// 5.1.1(v)): the server exchanges each sign-in's code at Apple's `/auth/token`, keeps the refresh token sealed, and a
/// job revokes it at `/auth/revoke`; all against Apple's endpoints on loopback.
@Suite(.serialized) struct AppleTokenRevocationTests {
    typealias Provider = IdentityProviderStandIn

    private func run(
        _ database: TestDatabase, adjust: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (APIClient, TestServer, AppleTokenEndpoints) async throws -> Void
    ) async throws {
        let provider = Provider()
        try await provider.serve { configure in
            let server = try await TestServer.make(database) {
                configure(&$0)
                $0.workers = 1
                adjust(&$0)
            }
            try await server.run { api in try await body(api, server, provider.appleTokens) }
        }
    }

    /// Signs in with Apple as the app does: identity token, raw nonce and the authorization code.
    private func signIn(_ api: APIClient, _ claims: Provider.Claims, code: String?) async throws -> APIClient.Reply {
        var body: [String: Any] = [
            "identity_token": try await Provider.appleToken(claims), "nonce": Provider.appleNonce,
        ]
        body["authorization_code"] = code
        return try await api.send(.post, "/v1/auth/apple", json: body)
    }

    private func keptToken(_ server: TestServer, subject: String) async throws -> (sealed: String?, clientID: String?) {
        try await server.withDatabase { driver in
            try await driver.read { db in
                guard
                    let row = try await db.raw(
                        "SELECT refresh_token_sealed, token_client_id FROM identities WHERE subject = \(bind: subject)"
                    ).first()
                else { return (nil, nil) }
                return (
                    try row.decode(column: "refresh_token_sealed", as: String?.self),
                    try row.decode(column: "token_client_id", as: String?.self)
                )
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func closingTheAccountRevokesTheAppleTokenKeptAtSignIn(_ database: TestDatabase) async throws {
        try await run(database) { api, server, apple throws in
            // Given a first sign-in with Apple that sent its authorization code
            let claims = Provider.appleClaims()
            let signedUp = try await signIn(api, claims, code: apple.issueCode())
            #expect(signedUp.status == .created, "\(signedUp.text)")
            let session = APIClient.session(signedUp)

            // Then the server exchanged it and keeps the refresh token sealed, never as it is
            let token = try #require(apple.issued.withLock { $0.first })
            let kept = try await keptToken(server, subject: claims.sub)
            let sealed = try #require(kept.sealed)
            #expect(!sealed.contains(token) && kept.clientID == Provider.appleClientID)

            // When the person closes the account
            #expect(try await api.send(.delete, "/v1/me", token: session.accessToken).status == .accepted)

            // Then Apple is told to revoke that token, and the account's rows are gone
            try await pollUntil("Apple revoked the token", every: .milliseconds(20)) {
                apple.revoked.withLock { $0 } == [token]
            }
            try await server.withDatabase { driver in
                try await pollUntil("the account is deleted", every: .milliseconds(20)) {
                    try await TestServer.rows(of: session.userID, in: driver) == 0
                }
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func appleBeingAwayDelaysTheRevocationNeverTheDeletion(_ database: TestDatabase) async throws {
        try await run(database) { api, server, apple throws in
            // Given an Apple account whose token is kept, and Apple's revocation endpoint down
            let signedUp = try await signIn(api, Provider.appleClaims(), code: apple.issueCode())
            let session = APIClient.session(signedUp)
            let token = try #require(apple.issued.withLock { $0.first })
            apple.revokeOutages.withLock { $0 = 1_000 }

            // When the account is closed
            #expect(try await api.send(.delete, "/v1/me", token: session.accessToken).status == .accepted)

            // Then the account is deleted all the same, while the revocation waits to be tried again
            try await server.withDatabase { driver in
                try await pollUntil("the account is deleted", every: .milliseconds(20)) {
                    try await TestServer.rows(of: session.userID, in: driver) == 0
                }
                try await pollUntil("a revocation was tried and is queued again", every: .milliseconds(20)) {
                    try await driver.read { db in
                        let row = try await db.raw(
                            "SELECT state, attempts, last_error FROM jobs WHERE kind = 'revoke_apple_token'"
                        ).first()
                        return try row?.decode(column: "state", as: String.self) == "queued"
                            && row?.decode(column: "attempts", as: Int.self) ?? 0 >= 1
                            && row?.decode(column: "last_error", as: String?.self)?.contains("503") == true
                    }
                }
            }
            #expect(apple.revoked.withLock { $0 }.isEmpty)

            // And when Apple is back, the next attempt revokes the token
            apple.revokeOutages.withLock { $0 = 0 }
            try await pollUntil("Apple revoked the token", every: .milliseconds(20)) {
                apple.revoked.withLock { $0 } == [token]
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func unlinkingAppleRevokesItsTokenAndTheAccountStays(_ database: TestDatabase) async throws {
        try await run(database) { api, server, apple throws in
            // Given an account with a password that links Apple, sending the code
            let person = try await api.register()
            try await server.markAddressConfirmed(userID: person.userID)
            let claims = Provider.appleClaims()
            let linked = try await api.send(
                .post, "/v1/me/identities/apple", token: person.accessToken,
                json: [
                    "token": try await Provider.appleToken(claims), "nonce": Provider.appleNonce,
                    "authorization_code": apple.issueCode(),
                ])
            #expect(linked.status == .created, "\(linked.text)")
            let token = try #require(apple.issued.withLock { $0.first })
            #expect(try await keptToken(server, subject: claims.sub).sealed != nil)

            // When Apple is unlinked
            #expect(try await api.send(.delete, "/v1/me/identities/apple", token: person.accessToken).status == .noContent)

            // Then its token is revoked, and the account still signs in with its password
            try await pollUntil("Apple revoked the token", every: .milliseconds(20)) {
                apple.revoked.withLock { $0 } == [token]
            }
            #expect(try await api.send(.get, "/v1/me", token: person.accessToken).status == .ok)
        }
    }

    @Test func aCodeThatCannotBeExchangedNeverStopsTheSignIn() async throws {
        try await run(.sqlite) { api, server, apple throws in
            let claims = Provider.appleClaims()
            // Given Apple's token endpoint away, a sign-in with a code still signs up, keeping nothing
            apple.tokenOutages.withLock { $0 = 1 }
            #expect(try await signIn(api, claims, code: apple.issueCode()).status == .created)
            #expect(try await keptToken(server, subject: claims.sub).sealed == nil)

            // And a code Apple does not know (used, made up) signs in the same way, keeping nothing
            #expect(try await signIn(api, claims, code: "made-up-code").status == .ok)
            #expect(try await keptToken(server, subject: claims.sub).sealed == nil)
            #expect(try await signIn(api, claims, code: nil).status == .ok)

            // When a later sign-in brings a good code, its token is kept
            #expect(try await signIn(api, claims, code: apple.issueCode()).status == .ok)
            #expect(try await keptToken(server, subject: claims.sub).sealed != nil)
            #expect(apple.issued.withLock { $0.count } == 1)
        }
    }

    @Test func aTeamKeyAppleDoesNotKnowKeepsNothingAndSignsIn() async throws {
        let unknownKey: @Sendable (inout ServerConfiguration) -> Void = {
            $0.appleTeamKey = AppleTeamKey(
                teamID: AppleTokenEndpoints.teamID, keyID: AppleTokenEndpoints.keyID,
                privateKeyPEM: ES256PrivateKey().pemRepresentation)
        }
        try await run(.sqlite, adjust: unknownKey) { api, server, apple throws in
            let claims = Provider.appleClaims()
            #expect(try await signIn(api, claims, code: apple.issueCode()).status == .created)
            #expect(apple.tokenRequests.withLock { $0 } == 1 && apple.issued.withLock { $0 }.isEmpty)
            #expect(try await keptToken(server, subject: claims.sub).sealed == nil)
        }
    }

    @Test func aWebSignInExchangesItsCodeWithThePagesRedirectURI() async throws {
        let publicURL: @Sendable (inout ServerConfiguration) -> Void = { $0.publicURL = "https://diary.example.com" }
        try await run(.sqlite, adjust: publicURL) { api, server, apple throws in
            // Given a code Apple's script got for the web's services id, returning to the page's origin
            var claims = Provider.appleClaims()
            claims.aud = "app.myday.web"
            let code = apple.issueCode(clientID: "app.myday.web", redirectURI: "https://diary.example.com/")
            let web: HTTPFields = [.xMyDayWeb: "1", .origin: "https://diary.example.com"]

            // When the web app signs in with it
            let signedIn = try await api.send(
                .post, "/v1/auth/web/apple",
                json: [
                    "identity_token": try await Provider.appleToken(claims), "nonce": Provider.appleNonce,
                    "authorization_code": code,
                ], headers: web)
            #expect(signedIn.status == .created, "\(signedIn.text)")

            // Then the code was exchanged for that client and URI, and the token kept for that client
            #expect(apple.issued.withLock { $0.count } == 1)
            #expect(try await keptToken(server, subject: claims.sub).clientID == "app.myday.web")
        }
    }

    @Test func theTeamKeyIsAllThreeSettingsOrNone() throws {
        func configuration(_ environment: [String: String]) throws -> ServerConfiguration {
            try ServerConfiguration(
                reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
        }
        let pem = ES256PrivateKey().pemRepresentation
        #expect(try configuration([:]).appleTeamKey == nil)
        let full = try configuration(["MYDAY_APPLE_TEAM_ID": "T1", "MYDAY_APPLE_KEY_ID": "K1", "MYDAY_APPLE_PRIVATE_KEY": pem])
        #expect(full.appleTeamKey?.teamID == "T1" && full.appleTeamKey?.keyID == "K1")
        #expect(throws: ConfigurationError.self) { try configuration(["MYDAY_APPLE_TEAM_ID": "T1"]) }
        #expect(throws: ConfigurationError.self) {
            try configuration(["MYDAY_APPLE_TEAM_ID": "T1", "MYDAY_APPLE_KEY_ID": "K1", "MYDAY_APPLE_PRIVATE_KEY": "not a key"])
        }
        #expect(throws: ConfigurationError.self) { try configuration(["MYDAY_APPLE_AUTH_URL": "http://apple.example/auth"]) }
    }

    @Test func sealedTokensOpenOnlyWithTheSameSecret() throws {
        let sealer = SecretSealer(secret: Array("one secret that is long enough for us".utf8), purpose: "tokens")
        let sealed = try sealer.seal("r.refresh-token")
        #expect(try sealer.open(sealed) == "r.refresh-token")
        #expect(try sealer.seal("r.refresh-token") != sealed)
        let other = SecretSealer(secret: Array("another secret, also long enough here".utf8), purpose: "tokens")
        #expect(throws: SecretSealer.SealingError.self) { try other.open(sealed) }
        var tampered = Array(sealed)
        tampered[10] = tampered[10] == "A" ? "B" : "A"
        #expect(throws: SecretSealer.SealingError.self) { try sealer.open(String(tampered)) }
    }
}
