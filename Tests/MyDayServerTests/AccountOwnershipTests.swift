import Foundation
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// Who owns an account whose address nobody confirmed (ADR 0029): the attack of a stranger who registers someone
/// else's address first, sent to the real server on both engines, and the ways in the address's owner gets back.
@Suite(.serialized) struct AccountOwnershipTests {
    typealias Provider = IdentityProviderStandIn
    static let victim = "victim@example.com"

    private func run(
        _ database: TestDatabase, _ body: @escaping @Sendable (APIClient, TestServer) async throws -> Void
    ) async throws {
        try await Provider().serve { configure in
            let server = try await TestServer.make(database) {
                configure(&$0)
                $0.workers = 1
                $0.publicURL = TestServer.publicURL
            }
            try await server.run { api in try await body(api, server) }
        }
    }

    /// The providers of a `GET /v1/me/identities` answer.
    static func providers(_ reply: APIClient.Reply) throws -> [String] {
        let list = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [[String: Any]])
        return list.compactMap { $0["provider"] as? String }
    }

    private func googleToken(sub: String, email: String) async throws -> String {
        try await Provider.googleToken(Provider.googleClaims(sub: sub, email: email))
    }

    @Test(arguments: TestDatabase.available)
    func aStrangerCannotLinkASignInToAnAddressNobodyConfirmed(_ database: TestDatabase) async throws {
        try await run(database) { api, _ in
            // Given someone who registered the victim's address and cannot open its mail
            let stranger = try await api.register(Self.victim, password: "the stranger's passphrase")
            // When they link their own Google account to it, then the server refuses: the address is unconfirmed
            let token = try await googleToken(sub: "stranger-google", email: "stranger@gmail.com")
            let link = try await api.send(
                .post, "/v1/me/identities/google", token: stranger.accessToken, json: ["token": token])
            #expect(link.status == .conflict && link.errorCode == "email_unconfirmed", "\(link.text)")
            // And that Google account signs in to an account of its own, never to the victim's
            let google = try await api.send(.post, "/v1/auth/google", json: ["id_token": token])
            #expect(google.status == .created)
            #expect(APIClient.session(google).userID != stranger.userID)
        }
    }

    @Test(arguments: TestDatabase.available)
    func theOwnersResetEndsEveryWayInTheStrangerLeft(_ database: TestDatabase) async throws {
        try await run(database) { api, server in
            // Given a stranger's account on the victim's address, with the stranger's Google linked before this rule
            // existed (written straight into the database, as an older server allowed)
            let stranger = try await api.register(Self.victim, password: "the stranger's passphrase")
            try await server.withDatabase { db in
                try await db.write { sql in
                    try await sql.raw(
                        """
                        INSERT INTO identities (provider, subject, email, user_id, created_at)
                        VALUES ('google', 'stranger-google', 'stranger@gmail.com', \(bind: stranger.userID), 0)
                        """
                    ).run()
                }
            }
            // When the owner asks for a reset, sets a password and writes an entry
            #expect(try await api.send(.post, "/v1/auth/password/forgot", json: ["email": Self.victim]).status == .accepted)
            let mail = try await server.awaitMail(to: Self.victim, subject: "Set a new password")
            let reset = try await api.send(
                .post, "/v1/auth/password/reset",
                json: ["token": try TestServer.token(in: mail, page: "reset"), "new_password": "the owner's own passphrase"])
            #expect(reset.status == .ok, "\(reset.text)")
            let owner = APIClient.session(reset)
            _ = try await api.send(
                .post, "/v1/entries", token: owner.accessToken,
                json: [
                    "id": UUID().uuidString.lowercased(), "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "duration_s": 0,
                    "kind": "text", "text": "Something only I should read.",
                ])

            // Then the stranger's Google signs in to a new, empty account of its own, not the owner's
            let google = try await api.send(
                .post, "/v1/auth/google",
                json: ["id_token": try await googleToken(sub: "stranger-google", email: "stranger@gmail.com")])
            let strangerAgain = APIClient.session(google)
            #expect(strangerAgain.userID != owner.userID, "\(google.text)")
            let seen = try await api.send(.get, "/v1/entries", token: strangerAgain.accessToken)
            #expect(!seen.text.contains("only I should read"))
            // And neither the stranger's password nor their session works any more
            let login = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": Self.victim, "password": "the stranger's passphrase"])
            #expect(login.status == .unauthorized)
            let refresh = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": stranger.refreshToken])
            #expect(refresh.status == .unauthorized)
            let ways = try await api.send(.get, "/v1/me/identities", token: owner.accessToken)
            #expect(try !Self.providers(ways).contains("google"), "\(ways.text)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func onlyTheCreatorConfirmsAndAnyoneElseTakesTheAccountWithTheLink(_ database: TestDatabase) async throws {
        try await run(database) { api, server in
            // Given a stranger's account on the victim's address; the confirmation mail reaches the victim
            let stranger = try await api.register(Self.victim, password: "the stranger's passphrase")
            let mail = try await server.awaitMail(to: Self.victim, subject: "Confirm your email address")
            let token = try TestServer.token(in: mail, page: "verify")

            // When the victim opens the link signed out, then it does not confirm the stranger's account, and stays good
            let opened = try await api.send(.post, "/v1/auth/email/verify", json: ["token": token])
            #expect(opened.status == .forbidden && opened.errorCode == "confirmation_needs_sign_in", "\(opened.text)")
            let me = try await api.send(.get, "/v1/me", token: stranger.accessToken)
            #expect(me.json["email_verified"] as? Bool == false)
            // Nor does another account's session count as the creator's
            let other = try await api.register()
            let foreign = try await api.send(.post, "/v1/auth/email/verify", token: other.accessToken, json: ["token": token])
            #expect(foreign.status == .forbidden)

            // When the victim sets a password with the same link, then the account is theirs alone
            let claimed = try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": token, "new_password": "the owner's own passphrase"])
            #expect(claimed.status == .ok, "\(claimed.text)")
            let owner = APIClient.session(claimed)
            #expect(owner.userID == stranger.userID)
            #expect((claimed.json["user"] as? [String: Any])?["email_verified"] as? Bool == true)
            #expect(try await api.send(.get, "/v1/me", token: stranger.accessToken).status == .unauthorized)
            let login = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": Self.victim, "password": "the stranger's passphrase"])
            #expect(login.status == .unauthorized)
            // And the link is used up
            let again = try await api.send(.post, "/v1/auth/email/verify", json: ["token": token])
            #expect(again.status == .unprocessableContent)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aVerifiedGoogleAddressClaimsAnAccountNobodyConfirmed(_ database: TestDatabase) async throws {
        try await run(database) { api, server in
            // Given a stranger's unconfirmed account on the victim's address
            let stranger = try await api.register(Self.victim, password: "the stranger's passphrase")
            // When the victim signs in with Google, which vouches for the address
            let token = try await googleToken(sub: "victim-google", email: Self.victim)
            let google = try await api.send(.post, "/v1/auth/google", json: ["id_token": token])
            // Then they are in that account, confirmed, with Google as its only way in
            #expect(google.status == .ok, "\(google.text)")
            let owner = APIClient.session(google)
            #expect(owner.userID == stranger.userID)
            let user = google.json["user"] as? [String: Any]
            #expect(user?["email_verified"] as? Bool == true && user?["has_password"] as? Bool == false)
            let ways = try await api.send(.get, "/v1/me/identities", token: owner.accessToken)
            #expect(try Self.providers(ways) == ["google"], "\(ways.text)")
            // And the stranger's password, session and pending links are gone
            let login = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": Self.victim, "password": "the stranger's passphrase"])
            #expect(login.status == .unauthorized)
            #expect(
                try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": stranger.refreshToken]).status
                    == .unauthorized)
            let pending = try await server.withDatabase { db in
                try await db.read { sql in
                    try await sql.raw(
                        "SELECT COUNT(*) AS n FROM email_tokens WHERE user_id = \(bind: owner.userID) AND used_at IS NULL"
                    )
                    .first()!.decode(column: "n", as: Int.self)
                }
            }
            #expect(pending == 0)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aConfirmedAccountIsNeverClaimedAndItsResetKeepsItsLinks(_ database: TestDatabase) async throws {
        try await run(database) { api, server in
            // Given an owner who confirmed their address and linked Google
            let owner = try await api.register(Self.victim, password: "the owner's own passphrase")
            try await api.confirmAddress(Self.victim, session: owner, on: server)
            let linkToken = try await googleToken(sub: "owner-google", email: "owner@gmail.com")
            let link = try await api.send(.post, "/v1/me/identities/google", token: owner.accessToken, json: ["token": linkToken])
            #expect(link.status == .created, "\(link.text)")
            // When another Google account with the same verified address signs in, then it gets no session to it
            let other = try await api.send(
                .post, "/v1/auth/google", json: ["id_token": try await googleToken(sub: "someone-else", email: Self.victim)])
            #expect(other.status == .conflict)
            // When the owner resets the password, then their own Google link stays
            #expect(try await api.send(.post, "/v1/auth/password/forgot", json: ["email": Self.victim]).status == .accepted)
            let mail = try await server.awaitMail(to: Self.victim, subject: "Set a new password")
            let reset = try await api.send(
                .post, "/v1/auth/password/reset",
                json: ["token": try TestServer.token(in: mail, page: "reset"), "new_password": "another long passphrase"])
            #expect(reset.status == .ok)
            let signIn = try await api.send(.post, "/v1/auth/google", json: ["id_token": linkToken])
            #expect(signIn.status == .ok && APIClient.session(signIn).userID == owner.userID)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aProviderThatVouchesForTheAccountsOwnAddressLinksAndConfirmsIt(_ database: TestDatabase) async throws {
        try await run(database) { api, _ in
            // Given an account whose address nobody confirmed (no mail reached it)
            let owner = try await api.register("own-google@gmail.com", password: "the owner's own passphrase")
            // When its person links the Google account of that very address, then it is linked and the address confirmed
            let token = try await googleToken(sub: "own-google", email: "own-google@gmail.com")
            let link = try await api.send(.post, "/v1/me/identities/google", token: owner.accessToken, json: ["token": token])
            #expect(link.status == .created, "\(link.text)")
            let me = try await api.send(.get, "/v1/me", token: owner.accessToken)
            #expect(me.json["email_verified"] as? Bool == true)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aConfirmationLinkSetsNoPasswordOnceTheAddressIsConfirmed(_ database: TestDatabase) async throws {
        try await run(database) { api, server in
            // Given a confirmation link still unused in the mail when the owner confirms the address another way (a reset)
            _ = try await api.register(Self.victim, password: "the owner's own passphrase")
            let confirmation = try TestServer.token(
                in: try await server.awaitMail(to: Self.victim, subject: "Confirm your email address"), page: "verify")
            try await api.send(.post, "/v1/auth/password/forgot", json: ["email": Self.victim], expecting: .accepted)
            let reset = try TestServer.token(
                in: try await server.awaitMail(to: Self.victim, subject: "Set a new password"), page: "reset")
            try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": reset, "new_password": "the owner's second passphrase"],
                expecting: .ok)
            // Then the confirmation link no longer sets a password (nor confirms: there is nothing left to confirm)
            let late = try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": confirmation, "new_password": "someone else's passphrase"])
            #expect(late.status == .unprocessableContent, "\(late.text)")
            #expect(
                try await api.send(.post, "/v1/auth/email/verify", json: ["token": confirmation]).status == .unprocessableContent)
        }
    }

    @Test(arguments: TestDatabase.available)
    func thePasswordIsAWayInThatCanBeRemovedButNeverTheLast(_ database: TestDatabase) async throws {
        try await run(database) { api, server in
            // Given a confirmed account that signs in with its password only
            let owner = try await api.register(Self.victim, password: "the owner's own passphrase")
            try await api.confirmAddress(Self.victim, session: owner, on: server)
            // Then its password cannot be removed
            let last = try await api.send(.delete, "/v1/me/password", token: owner.accessToken)
            #expect(last.status == .conflict, "\(last.text)")
            // When Google is linked, then the password can go, and no longer signs in
            let token = try await googleToken(sub: "owner-google", email: "owner@gmail.com")
            #expect(
                try await api.send(.post, "/v1/me/identities/google", token: owner.accessToken, json: ["token": token]).status
                    == .created)
            #expect(try await api.send(.delete, "/v1/me/password", token: owner.accessToken).status == .noContent)
            let me = try await api.send(.get, "/v1/me", token: owner.accessToken)
            #expect(me.json["has_password"] as? Bool == false)
            let login = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": Self.victim, "password": "the owner's own passphrase"])
            #expect(login.status == .unauthorized)
            // And Google, now the last way in, stays
            #expect(try await api.send(.delete, "/v1/me/identities/google", token: owner.accessToken).status == .conflict)
            #expect(try await api.send(.delete, "/v1/me/password", token: owner.accessToken).status == .notFound)
        }
    }

    @Test func anUnknownEmailCostsTheSameHashingAsAWrongPassword() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            // Given an account, and the server's count of bcrypt runs
            _ = try await api.register("known@example.com", password: "the right passphrase")
            func runs() async throws -> (hash: Int, verify: Int) {
                let metrics = try await api.send(.get, "/metrics").text
                func value(_ kind: String) -> Int {
                    let line = metrics.split(separator: "\n").first {
                        $0.hasPrefix("myday_auth_bcrypt_runs_total{kind=\"\(kind)\"}")
                    }
                    return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
                }
                return (value("hash"), value("verify"))
            }
            // When a known email is tried with a wrong password, and unknown emails twice
            let before = try await runs()
            for email in ["known@example.com", "nobody@example.com", "nobody-else@example.com"] {
                let login = try await api.send(.post, "/v1/auth/email/login", json: ["email": email, "password": "a wrong one"])
                #expect(login.status == .unauthorized)
            }
            // Then each cost exactly one verification and nothing was hashed anew
            let after = try await runs()
            #expect(after.verify - before.verify == 3)
            #expect(after.hash == before.hash)
        }
    }
}
