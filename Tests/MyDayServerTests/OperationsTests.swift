import Configuration
import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

@Suite struct OperationsTests {
    @Test func healthReadinessMetricsAndTheDocument() async throws {
        try await TestServer.make(.sqlite).run { api in
            #expect(try await api.send(.get, "/healthz").json["status"] as? String == "ok")
            let ready = try await api.send(.get, "/readyz").json
            #expect(ready["status"] as? String == "ready")
            // An API-only node (no workers) transcribes nothing, so it names no speech engine
            #expect(ready["speech"] == nil)
            let document = try await api.send(.get, "/openapi.yaml")
            #expect(document.status == .ok && document.text.hasPrefix("openapi: 3.1.0"))

            // A request leaves a count under its route pattern, never under the ids in its path
            let session = try await api.register()
            try await api.send(.get, "/v1/entries/\(UUID())", token: session.accessToken, expecting: .notFound)
            let metrics = try await api.send(.get, "/metrics").text
            #expect(metrics.contains(#"myday_http_requests_total{method="GET",route="/v1/entries/{id}",status="404"} 1"#))
            #expect(metrics.contains("myday_http_request_duration_seconds_bucket"))
            #expect(metrics.contains(#"myday_jobs_in_state_count{state="queued"} 0"#))
            #expect(!metrics.contains(session.userID))
            // Served over plain http, browsers are not told to insist on https
            #expect(document.headers[.strictTransportSecurity] == nil)
        }
    }

    @Test func theIPhoneAppOpensTheMailedLinksOnlyWhenOneIsConfigured() async throws {
        // Without an app, there is no association
        try await TestServer.make(.sqlite).run { api in
            let reply = try await api.send(.get, "/.well-known/apple-app-site-association")
            #expect(reply.status == .notFound)
        }
        // With one, Apple's document names it and the fragments of the links the server mails
        let server = try await TestServer.make(.sqlite) { $0.iosAppIDs = ["ABCDE12345.app.myday"] }
        try await server.run { api in
            let reply = try await api.send(.get, "/.well-known/apple-app-site-association")
            #expect(reply.status == .ok && reply.headers[.contentType] == "application/json")
            let details = try #require(((reply.json["applinks"] as? [String: Any])?["details"] as? [[String: Any]])?.first)
            #expect(details["appIDs"] as? [String] == ["ABCDE12345.app.myday"])
            let fragments = (details["components"] as? [[String: String]])?.compactMap { $0["#"] }
            #expect(fragments == ["/verify/*", "/reset/*"])
        }
        // And an id that is not TEAMID.bundle.id is refused at start
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(
                reader: ConfigReader(
                    provider: EnvironmentVariablesProvider(environmentVariables: ["MYDAY_IOS_APP_IDS": "app.myday"])))
        }
    }

    @Test func theTestSuitesBcryptCostIsReadWithinBcryptsBounds() throws {
        func configuration(_ environment: [String: String]) throws -> ServerConfiguration {
            try ServerConfiguration(
                reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
        }
        // Given no setting, passwords are hashed at the production cost
        #expect(try configuration([:]).bcryptCost == 12)
        #if DEBUG
            // When the test suites' server processes ask for the lowest cost, then this debug build uses it
            #expect(try configuration(["MYDAY_TEST_BCRYPT_COST": "4"]).bcryptCost == 4)
            // And a cost bcrypt does not have is refused at start
            for cost in ["3", "32"] {
                #expect(throws: ConfigurationError.self) { try configuration(["MYDAY_TEST_BCRYPT_COST": cost]) }
            }
        #else
            // When a release build is given the test suites' setting, then it is not read
            #expect(try configuration(["MYDAY_TEST_BCRYPT_COST": "4"]).bcryptCost == 12)
        #endif
    }

    @Test func aMetricsTokenLocksMetricsAndAnHTTPSPublicURLSendsHSTS() async throws {
        // Given a server behind https whose operator set a metrics token
        let token = "metrics-token-of-the-operator"
        try await TestServer.make(.sqlite) {
            $0.metricsToken = token
            $0.publicURL = "https://diary.example.com"
        }.run { api in
            // When someone without the token asks for the metrics, then they are refused
            #expect(try await api.send(.get, "/metrics").status == .unauthorized)
            #expect(try await api.send(.get, "/metrics", token: token + "x").status == .unauthorized)
            #expect(try await api.send(.get, "/metrics", token: String(token.dropLast())).status == .unauthorized)
            let metrics = try await api.send(.get, "/metrics", token: token)
            #expect(metrics.status == .ok && metrics.text.contains("myday_http_requests_total"))
            // And every answer tells browsers to come back over https only
            #expect(try await api.send(.get, "/healthz").headers[.strictTransportSecurity] == "max-age=31536000")
        }
    }

    @Test func readinessAndMetricsNameTheSpeechEngine() async throws {
        // Given a node that runs jobs with PocketSphinx (the speech service is off in these tests)
        try await TestServer.make(.sqlite) { $0.workers = 1 }.run { api in
            let speech = try await api.send(.get, "/readyz").json["speech"] as? [String: String]
            #expect(speech == ["engine": "pocketsphinx", "model": "en-us", "state": "ready"])
            let metrics = try await api.send(.get, "/metrics").text
            #expect(metrics.contains(#"myday_speech_engine_ready{engine="pocketsphinx",model="en-us"} 1"#), "\(metrics)")
        }
    }

    @Test func unknownRoutesAndMethodsAnswerJSONErrors() async throws {
        try await TestServer.make(.sqlite).run { api in
            let missing = try await api.send(.get, "/v1/nothing-here")
            #expect(missing.status == .notFound && missing.errorCode == "not_found")
            let requestID = missing.headers[.init("X-Request-Id")!]
            #expect(requestID?.isEmpty == false)

            // A method a path does not take is 405 with the methods it does take; TRACE never echoes
            let put = try await api.send(.put, "/healthz")
            #expect(put.status == .methodNotAllowed && put.headers[.allow] == "GET")
            let trace = try await api.send(.init("TRACE")!, "/v1/entries/\(UUID())")
            #expect(trace.status == .methodNotAllowed && trace.headers[.allow] == "GET, PATCH, DELETE")
        }
    }

    @Test func theAllowTableNamesExactlyTheDocumentsMethods() throws {
        var fromDocument: [String: Set<String>] = [:]
        for operation in try ObjectAuthorizationTests.operations() {
            fromDocument[operation.path, default: []].insert(operation.method.rawValue)
        }
        var fromTable: [String: Set<String>] = [:]
        for (template, methods) in AllowedMethods.byPath {
            fromTable["/" + template.joined(separator: "/")] = Set(methods.map(\.rawValue))
        }
        #expect(fromTable == fromDocument)
    }

    @Test func theSecretIsGeneratedOnceAndKeptPrivate() async throws {
        var configuration = try await TestDatabase.sqlite.freshConfiguration()
        configuration.secret = nil
        try await TestServer(configuration: configuration).run { _ in }
        let first = try String(contentsOf: configuration.secretFile, encoding: .utf8)
        try await TestServer(configuration: configuration).run { _ in }
        #expect(try String(contentsOf: configuration.secretFile, encoding: .utf8) == first)
        #expect(first.count >= 32)
        let permissions =
            try FileManager.default.attributesOfItem(atPath: configuration.secretFile.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: configuration.dataDirectory.path)[.posixPermissions] as? Int
        #expect(folder == 0o700)
    }

    @Test func aWeakOrPlaceholderSecretIsRefused() async throws {
        // Given the deployment example's old placeholder, short, repetitive and low-entropy secrets
        let refused = [
            "change-me-to-64-random-characters", "too-short", String(repeating: "a", count: 64),
            String(repeating: "ab", count: 32), String(repeating: "abc123", count: 6), "my-signing-secret-for-the-diary-server",
        ]
        for secret in refused {
            var configuration = try await TestDatabase.sqlite.freshConfiguration()
            configuration.secret = secret
            // When the server starts with it, then it refuses to
            await #expect(throws: ConfigurationError.self, "\(secret)") {
                try await TestServer(configuration: configuration).run { _ in }
            }
        }
        // And what `openssl rand -hex 32` makes is accepted
        let hex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        #expect(SigningSecret.weakness(of: hex) == nil)
        // As is a 128-bit one of the older 32-character rule (`openssl rand -hex 16`), a server upgraded with it starts
        let older = "9f86d081884c7d659a2feaa0c55ad015"
        #expect(SigningSecret.weakness(of: older) == nil)
        let example = try String(
            contentsOf: RepositoryFiles.root.appendingPathComponent("deploy/myday.env.example"), encoding: .utf8)
        #expect(!example.split(separator: "\n").contains { $0.hasPrefix("MYDAY_SECRET=") })
    }
}
