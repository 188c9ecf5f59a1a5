import Foundation
import HTTPTypes
import Testing

@testable import MyDayServer

/// The web app's files and its cookie session (ADR 0015), on the real server.
@Suite struct WebAppTests {
    private let web: HTTPFields = [.xMyDayWeb: "1", .contentType: "application/json"]

    @Test func servesTheAppWithAPolicyThatForbidsInlineScript() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            // Given the page, then it is HTML with a strict policy, an ETag, and no inline script or style
            let page = try await api.send(.get, "/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(
                policy.contains("script-src 'self'") && !policy.contains("unsafe-inline")
                    && policy.contains("frame-ancestors 'none'"))
            #expect(page.text.contains(#"<script type="module" src="/app/main.js"></script>"#))
            #expect(page.text.ranges(of: "<script").count == 1)
            #expect(!page.text.contains("<style") && !page.text.contains(" style="))
            #expect(page.text.firstMatch(of: /\son[a-z]+=/) == nil, "inline event handlers")
            // When it is asked again with its ETag, then 304
            let etag = try #require(page.headers[.eTag])
            #expect(try await api.send(.get, "/", headers: [.ifNoneMatch: etag]).status == .notModified)
            // Modules and the service worker carry their types; unknown files and escapes are 404
            #expect(try await api.send(.get, "/app/main.js").headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await api.send(.get, "/sw.js").headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await api.send(.get, "/manifest.webmanifest").headers[.contentType] == "application/manifest+json")
            #expect(try await api.send(.get, "/app/nothing.js").status == .notFound)
            #expect(try await api.send(.get, "/app/../../Package.swift").status == .notFound)
        }
    }

    @Test func everyModuleTheShellListsExists() throws {
        // Given the service worker's shell list and the files served, then each listed file is served
        let routes = try WebAppRoutes<MyDayRequestContext>.bundled(
            config: .init(signIn: .init(email: true, apple: false, google: false)))
        let worker = String(decoding: Data(buffer: try #require(routes.files["sw.js"]).bytes), as: UTF8.self)
        let listed = worker.matches(of: /"(\/[^"]*)"/).map { String($0.1) }.filter { $0 != "/" && $0.contains(".") }
        #expect(listed.count > 10)
        for path in listed { #expect(routes.files[String(path.dropFirst())] != nil, "\(path) is in the shell but not served") }
        let modules = routes.files.keys.filter { $0.hasSuffix(".js") && $0 != "sw.js" }
        for module in modules { #expect(listed.contains("/\(module)"), "\(module) is served but not cached for offline use") }
    }

    @Test func configTellsWhichSignInsExistAndTheLongestRecording() async throws {
        let plain = try await TestServer.make(.sqlite)
        try await plain.run { api in
            let config = try await api.send(.get, "/v1/config").json
            #expect((config["sign_in"] as? [String: Bool]) == ["email": true, "apple": false, "google": false])
            #expect(config["apple_client_id"] == nil)
            #expect(config["max_recording_seconds"] as? Int == 3 * 3600)
        }
        let withApple = try await TestServer.make(.sqlite) {
            $0.appleClientIDs = ["com.example.myday.web", "com.example.myday"]
            $0.maxRecordingSeconds = 600
        }
        try await withApple.run { api in
            let config = try await api.send(.get, "/v1/config").json
            #expect(config["max_recording_seconds"] as? Int == 600)
            #expect(config["apple_client_id"] as? String == "com.example.myday.web")
            let policy = try await api.send(.get, "/").headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("https://appleid.cdn-apple.com"))
        }
    }

    @Test(arguments: TestDatabase.available)
    func theRefreshTokenLivesInAnHttpOnlyCookieAndRotates(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { [web] api in
            // Given a web registration
            let credentials = ["email": "web-\(UUID().uuidString.prefix(8))@example.com", "password": "correct horse battery"]
            let registered = try await api.send(.post, "/v1/auth/web/register", json: credentials, headers: web)
            #expect(registered.status == .created)
            // Then the body has an access token but no refresh token, and the cookie is HttpOnly, Strict, narrow
            #expect(registered.json["access_token"] is String && registered.json["refresh_token"] == nil)
            let cookie = try #require(registered.headers[.setCookie])
            for part in ["myday_refresh=", "HttpOnly", "SameSite=Strict", "Path=/v1/auth/web", "Max-Age="] {
                #expect(cookie.contains(part), "\(cookie)")
            }
            let first = String(cookie.split(separator: ";")[0])
            // When the page refreshes with the cookie, then it gets a new token and a rotated cookie
            let refreshed = try await api.send(.post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1", .cookie: first])
            #expect(refreshed.status == .ok)
            let second = String(try #require(refreshed.headers[.setCookie]).split(separator: ";")[0])
            #expect(second != first)
            let me = try await api.send(.get, "/v1/me", token: refreshed.json["access_token"] as? String)
            #expect(me.status == .ok)
            // When the new cookie was used and the old one comes back (stolen and replayed), then 401 and the
            // cookie is cleared (a replay before the successor's use is a lost answer's retry, ADR 0009)
            #expect(try await api.send(.post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1", .cookie: second]).status == .ok)
            let replayed = try await api.send(.post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1", .cookie: first])
            #expect(replayed.status == .unauthorized)
            #expect(replayed.headers[.setCookie]?.contains("Max-Age=0") == true)
        }
    }

    @Test func crossSiteRequestsAndMissingHeadersAreRefused() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { [web] api in
            let credentials = ["email": "csrf@example.com", "password": "correct horse battery"]
            // Without the header a form cannot send: 403, and no account
            let plain = try await api.send(.post, "/v1/auth/web/register", json: credentials)
            #expect(plain.status == .forbidden)
            // From another site's page: 403
            var foreign = web
            foreign[.origin] = "https://evil.example"
            #expect(try await api.send(.post, "/v1/auth/web/register", json: credentials, headers: foreign).status == .forbidden)
            #expect(try await api.send(.post, "/v1/auth/web/login", json: credentials, headers: web).status == .unauthorized)
            // Without a cookie, refresh is 401
            #expect(try await api.send(.post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1"]).status == .unauthorized)
        }
    }

    @Test func originsAreComparedAsSchemeHostAndPort() {
        typealias Routes = WebSessionRoutes<MyDayRequestContext>
        #expect(Routes.normalized("https://Diary.Example.com:443") == Routes.normalized("https://diary.example.com/"))
        #expect(Routes.normalized("http://127.0.0.1:8080") == "http://127.0.0.1:8080")
        #expect(Routes.normalized("https://diary.example.com") != Routes.normalized("http://diary.example.com"))
        #expect(Routes.normalized("https://diary.example.com.evil.example") != Routes.normalized("https://diary.example.com"))
        #expect(Routes.normalized("null") == nil)
    }

    @Test func logoutEndsTheLoginAndClearsTheCookie() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { [web] api in
            let credentials = ["email": "leaving@example.com", "password": "correct horse battery"]
            try await api.send(.post, "/v1/auth/web/register", json: credentials, headers: web, expecting: .created)
            let login = try await api.send(.post, "/v1/auth/web/login", json: credentials, headers: web)
            let cookie = String(try #require(login.headers[.setCookie]).split(separator: ";")[0])
            let out = try await api.send(.post, "/v1/auth/web/logout", headers: [.xMyDayWeb: "1", .cookie: cookie])
            #expect(out.status == .noContent)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(
                try await api.send(.post, "/v1/auth/web/refresh", headers: [.xMyDayWeb: "1", .cookie: cookie]).status
                    == .unauthorized)
        }
    }
}
