import Foundation
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// Verified addresses and "Forgot password?", against the real server with its outbox (ADR 0021): links mailed from
/// the public URL only, single use, expiring; the same answer whoever asks; a reset that gives an address's owner the
/// account back and ends every other session.
@Suite struct AccountRecoveryTests {
    @Test(arguments: TestDatabase.available)
    func registrationMailsALinkThatConfirmsTheAddressOnce(_ database: TestDatabase) async throws {
        let server = try await TestServer.mailing(database)
        try await server.run { api in
            // Given a new account: signed in at once, its address not yet confirmed
            let session = try await api.register("new@example.com")
            #expect(try await api.send(.get, "/v1/me", token: session.accessToken).json["email_verified"] as? Bool == false)
            // When the mailed link is used, then the address is confirmed
            let mail = try await server.awaitMail(to: "new@example.com", subject: "Confirm your email address")
            #expect(mail.contains("\(TestServer.publicURL)/#/verify/"))
            let token = try TestServer.token(in: mail, page: "verify")
            let verified = try await api.send(.post, "/v1/auth/email/verify", token: session.accessToken, json: ["token": token])
            #expect(verified.status == .ok && verified.json["email"] as? String == "new@example.com")
            #expect(try await api.send(.get, "/v1/me", token: session.accessToken).json["email_verified"] as? Bool == true)
            // And it works once; a made-up token does nothing; asking again for a confirmed address is refused
            let again = try await api.send(.post, "/v1/auth/email/verify", token: session.accessToken, json: ["token": token])
            #expect(again.status == .unprocessableContent && again.errorCode == "link_expired")
            #expect(
                try await api.send(.post, "/v1/auth/email/verify", json: ["token": "made-up"]).status == .unprocessableContent)
            let resend = try await api.send(.post, "/v1/me/email/verification", token: session.accessToken)
            #expect(resend.status == .conflict)
        }
    }

    @Test func sendingTheLinkAgainIsLimitedAndOnlyTheNewestWorks() async throws {
        let server = try await TestServer.mailing(.sqlite)
        try await server.run { api in
            let session = try await api.register("again@example.com")
            let first = try await server.awaitMail(to: "again@example.com", subject: "Confirm your email address")
            // When the link is asked for again: once a minute per address
            let reply = try await api.send(.post, "/v1/me/email/verification", token: session.accessToken)
            #expect(reply.status == .accepted)
            let second = try await server.awaitMail(to: "again@example.com", subject: "Confirm your email address", count: 2)
            let flood = try await api.send(.post, "/v1/me/email/verification", token: session.accessToken)
            #expect(flood.status == .tooManyRequests)
            // Then the older link no longer works, the newer does
            let old = try await api.send(
                .post, "/v1/auth/email/verify", token: session.accessToken,
                json: ["token": try TestServer.token(in: first, page: "verify")])
            #expect(old.status == .unprocessableContent)
            let new = try await api.send(
                .post, "/v1/auth/email/verify", token: session.accessToken,
                json: ["token": try TestServer.token(in: second, page: "verify")])
            #expect(new.status == .ok)
        }
    }

    @Test func withoutAPublicURLNothingIsMailedAndTheAppSaysSo() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 1 }
        try await server.run { api in
            let session = try await api.register("quiet@example.com")
            #expect(try await api.send(.get, "/v1/config").json["mails_links"] as? Bool == false)
            let resend = try await api.send(.post, "/v1/me/email/verification", token: session.accessToken)
            #expect(resend.status == .conflict && resend.errorCode == "mail_unavailable")
            #expect(
                try await api.send(.post, "/v1/auth/password/forgot", json: ["email": "quiet@example.com"]).status == .accepted)
            // The jobs ran (and mailed nothing): the queue is empty of mail work
            try await pollUntil("the mail jobs ran") {
                try await server.withDatabase { driver in
                    try await driver.read { db in
                        try await db.raw("SELECT COUNT(*) AS n FROM jobs WHERE kind LIKE 'mail_%' AND state <> 'succeeded'")
                            .first()!.decode(column: "n", as: Int.self) == 0
                    }
                }
            }
            #expect(server.mails().isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func forgotPasswordAnswersAlikeAndItsLinkGivesTheAddressOwnerTheAccountBack(_ database: TestDatabase) async throws {
        let server = try await TestServer.mailing(database)
        try await server.run { api in
            // Given someone who registered the owner's address first, with a password of their own, signed in
            let squatter = try await api.register("owner@example.com", password: "the squatter's password")
            // When a reset is asked for that address and for an address nobody has, the answers are the same
            let known = try await api.send(.post, "/v1/auth/password/forgot", json: ["email": "Owner@Example.com"])
            let unknown = try await api.send(.post, "/v1/auth/password/forgot", json: ["email": "nobody@example.com"])
            #expect(known.status == .accepted && unknown.status == .accepted && known.body == unknown.body)
            // Then only the address that has an account gets a link, on the public URL
            let mail = try await server.awaitMail(to: "owner@example.com", subject: "Set a new password")
            #expect(mail.contains("\(TestServer.publicURL)/#/reset/"))
            try await server.awaitMailJobsRun()
            #expect(server.mails(to: "nobody@example.com", subject: "").isEmpty)
            // When the owner sets a new password with it (a weak one is refused first, without using the link up)
            let token = try TestServer.token(in: mail, page: "reset")
            let weak = try await api.send(.post, "/v1/auth/password/reset", json: ["token": token, "new_password": "        "])
            #expect(weak.status == .unprocessableContent)
            let reset = try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": token, "new_password": "the owner's own passphrase"])
            #expect(reset.status == .ok, "\(reset.text)")
            let owner = try #require(reset.json["access_token"] as? String)
            // Then the owner is signed in, the address confirmed, and every session of the squatter is over
            #expect(try await api.send(.get, "/v1/me", token: owner).json["email_verified"] as? Bool == true)
            #expect(try await api.send(.get, "/v1/me", token: squatter.accessToken).status == .unauthorized)
            #expect(
                try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": squatter.refreshToken]).status
                    == .unauthorized)
            #expect(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "owner@example.com", "password": "the squatter's password"]
                ).status == .unauthorized)
            // And the link works once
            let twice = try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": token, "new_password": "yet another passphrase"])
            #expect(twice.status == .unprocessableContent && twice.errorCode == "link_expired")
        }
    }

    @Test func anExpiredResetLinkChangesNothing() async throws {
        let server = try await TestServer.mailing(.sqlite)
        try await server.run { api in
            _ = try await api.register("late@example.com", password: "the first passphrase")
            try await api.send(.post, "/v1/auth/password/forgot", json: ["email": "late@example.com"], expecting: .accepted)
            let token = try TestServer.token(
                in: try await server.awaitMail(to: "late@example.com", subject: "Set a new password"), page: "reset")
            // Given the link's 30 minutes are over
            try await server.withDatabase { driver in
                try await driver.write { db in
                    try await db.raw("UPDATE email_tokens SET expires_at = \(bind: StoredTime.now() - 1)").run()
                }
            }
            let reply = try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": token, "new_password": "a later passphrase"])
            #expect(reply.status == .unprocessableContent)
            #expect(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "late@example.com", "password": "the first passphrase"]
                ).status == .ok)
        }
    }

    @Test func whilePasswordSignInIsThrottledGoogleSignInAndThePasswordResetStillWork() async throws {
        let provider = IdentityProviderStandIn()
        try await provider.serve { configure in
            let server = try await TestServer.mailing(.sqlite) {
                configure(&$0)
                $0.rateLimits.loginPerAccount = RateLimit(perMinute: 2)
                $0.rateLimits.authPerAddress = RateLimit(perMinute: 1000)
            }
            try await server.run { api in
                // Given an account with Google linked
                let session = try await api.register("target@example.com", password: "the owner's passphrase")
                try await api.confirmAddress("target@example.com", session: session, on: server)
                let claims = IdentityProviderStandIn.googleClaims(email: "target@example.com")
                let linked = try await api.send(
                    .post, "/v1/me/identities/google", token: session.accessToken,
                    json: ["token": try await IdentityProviderStandIn.googleToken(claims)])
                try #require(linked.status == .created, "\(linked.text)")
                // When an attacker spends the account's password guesses
                var statuses: [Int] = []
                for _ in 0..<4 {
                    statuses.append(
                        try await api.send(
                            .post, "/v1/auth/email/login", json: ["email": "target@example.com", "password": "a wrong guess"]
                        ).status.code)
                }
                #expect(statuses.suffix(2) == [429, 429])
                // Then the owner still signs in with Google, and can still reset the password by mail
                let google = try await api.send(
                    .post, "/v1/auth/google", json: ["id_token": try await IdentityProviderStandIn.googleToken(claims)])
                #expect(google.status == .ok, "\(google.text)")
                try await api.send(.post, "/v1/auth/password/forgot", json: ["email": "target@example.com"], expecting: .accepted)
                let token = try TestServer.token(
                    in: try await server.awaitMail(to: "target@example.com", subject: "Set a new password"), page: "reset")
                let reset = try await api.send(
                    .post, "/v1/auth/password/reset", json: ["token": token, "new_password": "a fresh passphrase"])
                #expect(reset.status == .ok, "\(reset.text)")
            }
        }
    }
}
