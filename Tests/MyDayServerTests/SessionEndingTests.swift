import Foundation
import HTTPTypes
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// What a session's end takes with it, and the smaller doors: reset links and audio links die with the sessions,
/// a planted cookie does not sign the web app out, mail to one address is capped per day, oversized bodies to the
/// mailed-link operations are 413.
@Suite struct SessionEndingTests {
    @Test(arguments: TestDatabase.available)
    func aPendingResetLinkDiesWithSignOutEverywhereAndANewPassword(_ database: TestDatabase) async throws {
        let server = try await TestServer.mailing(database) { $0.rateLimits.accountMailsPerAddress = RateLimit(perMinute: 100) }
        try await server.run { api in
            let email = "reset-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let session = try await api.register(email, password: "the first passphrase")
            // Given a reset link mailed, then every session ended
            try await api.send(.post, "/v1/auth/password/forgot", json: ["email": email], expecting: .accepted)
            let first = try TestServer.token(
                in: try await server.awaitMail(to: email, subject: "Set a new password"), page: "reset")
            try await api.send(.post, "/v1/auth/logout-all", token: session.accessToken, expecting: .noContent)
            // Then the link no longer sets a password
            let late = try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": first, "new_password": "someone else's passphrase"])
            #expect(late.status == .unprocessableContent && late.errorCode == "link_expired", "\(late.text)")
            // Given another link, then a password change
            let login = APIClient.session(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": email, "password": "the first passphrase"], expecting: .ok))
            try await api.send(.post, "/v1/auth/password/forgot", json: ["email": email], expecting: .accepted)
            let second = try TestServer.token(
                in: try await server.awaitMail(to: email, subject: "Set a new password", count: 2), page: "reset")
            try await api.send(
                .post, "/v1/me/password", token: login.accessToken,
                json: ["current_password": "the first passphrase", "new_password": "the second passphrase"], expecting: .ok)
            let stale = try await api.send(
                .post, "/v1/auth/password/reset", json: ["token": second, "new_password": "someone else's passphrase"])
            #expect(stale.status == .unprocessableContent)
        }
    }

    @Test(arguments: TestDatabase.available)
    func audioLinksStopWhenTheSessionsEnd(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            // Given an entry's audio link, which works
            let email = "audio-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let session = try await api.register(email, password: "the owner's passphrase")
            let id = try await api.createUploadedEntry(session)
            let link = try #require(
                try await api.send(.get, "/v1/entries/\(id)/audio", token: session.accessToken).json["url"] as? String)
            #expect(try await api.send(.get, link).status == .ok)
            // When the person signs out everywhere, then the link is dead at once
            try await api.send(.post, "/v1/auth/logout-all", token: session.accessToken, expecting: .noContent)
            let dead = try await api.send(.get, link)
            #expect(dead.status == .forbidden, "\(dead.status)")
            // And one made after signing in again works, but not with its version edited back
            let again = APIClient.session(
                try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": email, "password": "the owner's passphrase"], expecting: .ok))
            let fresh = try #require(
                try await api.send(.get, "/v1/entries/\(id)/audio", token: again.accessToken).json["url"] as? String)
            #expect(try await api.send(.get, fresh).status == .ok)
            let forged = fresh.replacingOccurrences(of: #"v=\d+"#, with: "v=0", options: .regularExpression)
            #expect(try await api.send(.get, forged).status == .forbidden)
        }
    }

    @Test func aPlantedRefreshCookieDoesNotSignTheWebAppOut() async throws {
        try await TestServer.make(.sqlite).run { api in
            let web: HTTPFields = [.xMyDayWeb: "1", .contentType: "application/json"]
            let credentials = [
                "email": "planted-\(UUID().uuidString.prefix(6))@example.com", "password": "correct horse battery",
            ]
            let registered = try await api.send(.post, "/v1/auth/web/register", json: credentials, headers: web)
            let real = String(try #require(registered.headers[.setCookie]).split(separator: ";")[0])
            // Given a second cookie of the same name planted before the real one (a longer path comes first)
            let cookies = "myday_refresh=planted-by-a-neighbour; \(real)"
            // When the page refreshes, then the session goes on with the real cookie
            let refreshed = try await api.send(.post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1", .cookie: cookies])
            #expect(refreshed.status == .ok, "\(refreshed.text)")
            #expect(refreshed.json["access_token"] is String)
        }
    }

    @Test func overHTTPSANeighboursLiveCookieNeverChoosesTheAccount() async throws {
        let server = try await TestServer.make(.sqlite) { $0.publicURL = "https://diary.example.com" }
        try await server.run { api in
            let web: HTTPFields = [.xMyDayWeb: "1", .contentType: "application/json"]
            // Given a person signed in on the web over HTTPS
            let owner = "owner-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let registered = try await api.send(
                .post, "/v1/auth/web/register", json: ["email": owner, "password": "correct horse battery"], headers: web)
            let setCookie = try #require(registered.headers[.setCookie])
            // Then the cookie is one only this origin can set: host-only, Secure, on the whole site
            #expect(setCookie.hasPrefix("__Host-myday_refresh="), "\(setCookie)")
            for part in ["; Path=/;", "HttpOnly", "SameSite=Strict", "; Secure"] {
                #expect(setCookie.contains(part), "\(setCookie)")
            }
            #expect(!setCookie.contains("Domain"))
            let real = String(setCookie.split(separator: ";")[0])
            // And a neighbouring subdomain's page planted a live session of its own account under the plain name
            let stranger = try await api.send(
                .post, "/v1/auth/email/register",
                json: ["email": "neighbour-\(UUID().uuidString.prefix(6))@example.com", "password": "correct horse battery"],
                expecting: .created)
            let planted = "myday_refresh=\(try #require(stranger.json["refresh_token"] as? String))"
            // When the page refreshes with both, the planted one first, then the session is the person's own
            let refreshed = try await api.send(
                .post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1", .cookie: "\(planted); \(real)"])
            #expect(refreshed.status == .ok, "\(refreshed.text)")
            let me = try await api.send(.get, "/v1/me", token: refreshed.json["access_token"] as? String)
            #expect(me.json["email"] as? String == owner)
            // When only the planted cookie comes, then nobody is signed in, and both names are cleared
            let alone = try await api.send(.post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1", .cookie: planted])
            #expect(alone.status == .unauthorized)
            let cleared = alone.headers[values: .setCookie]
            #expect(cleared.contains { $0.hasPrefix("__Host-myday_refresh=;") && $0.contains("Max-Age=0") }, "\(cleared)")
            #expect(cleared.contains { $0.hasPrefix("myday_refresh=;") && $0.contains("Path=/v1/auth/web") }, "\(cleared)")
        }
    }

    @Test func mailToOneAddressIsCappedPerDay() async throws {
        let server = try await TestServer.mailing(.sqlite) {
            $0.rateLimits.accountMailsPerAddress = RateLimit(perMinute: 1_000)
            $0.trustedProxyHops = 1
        }
        try await server.run { api in
            let email = "capped@example.com"
            _ = try await api.register(email)
            func forgot(from client: String) async throws -> Int {
                try await api.send(
                    .post, "/v1/auth/password/forgot", json: ["email": email], headers: [.xForwardedFor: client]
                ).status.code
            }
            // Given ten resets asked for one address from one client address in a day, then the eleventh waits
            var statuses: [Int] = []
            for _ in 0..<11 { statuses.append(try await forgot(from: "203.0.113.5")) }
            #expect(statuses.prefix(10).allSatisfy { $0 == 202 }, "\(statuses)")
            #expect(statuses.last == 429)
            // But that stranger does not spend the owner's own resets of the day, up to the address's cap of 30
            #expect(try await forgot(from: "198.51.100.7") == 202)
            for client in 1...19 { _ = try await forgot(from: "198.51.100.\(100 + client)") }
            #expect(try await forgot(from: "198.51.100.200") == 429)
        }
    }

    @Test func oversizedBodiesToTheMailedLinkOperationsAre413() async throws {
        try await TestServer.make(.sqlite).run { api in
            let padding = String(repeating: "x", count: 70_000)
            for (path, body) in [
                ("/v1/auth/password/forgot", ["email": padding]),
                ("/v1/auth/password/reset", ["token": padding, "new_password": "x"]),
                ("/v1/auth/email/verify", ["token": padding]),
            ] {
                let reply = try await api.send(.post, path, json: body)
                #expect(reply.status == .contentTooLarge, "\(path): \(reply.status)")
            }
        }
    }
}
