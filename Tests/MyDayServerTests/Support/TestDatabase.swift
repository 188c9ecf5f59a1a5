import Foundation
import Logging
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// A database engine for a test run; PostgreSQL joins when the test command started one.
enum TestDatabase: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    /// `MYDAY_TEST_POSTGRES_URL` names a server where each test gets a database of its own.
    static let postgresAdminURL = ProcessInfo.processInfo.environment["MYDAY_TEST_POSTGRES_URL"]

    /// Every engine this run can test: both when PostgreSQL is configured (the test command always does).
    static var available: [TestDatabase] { postgresAdminURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }

    /// A configuration with a fresh data directory and a fresh, empty database of this engine.
    func freshConfiguration() async throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = TestFolder.path("myday-test")
        configuration.secret = "2d8f4b1e7c3a9f6d0b5e2c8a4f1d7b3e9c6a0f2d8b5e1c4a7f3d9b6e0c2a8f5d"
        configuration.logLevel = "warning"
        // Background jobs run only in the tests that ask for them, with PocketSphinx unless a test asks for Whisper.
        configuration.workers = 0
        configuration.speechService = .off
        // Rate limits are exercised by the tests that set them; others make as many requests as they need.
        configuration.rateLimits = .generous
        // bcrypt's cheapest cost: the production cost is checked by a test of the real executable.
        configuration.bcryptCost = 4
        if self == .postgres {
            configuration.databaseURL = try await Self.createPostgresDatabase()
        }
        return configuration
    }

    private static func createPostgresDatabase() async throws -> String {
        guard let admin = postgresAdminURL, var components = URLComponents(string: admin) else {
            throw ConfigurationError("MYDAY_TEST_POSTGRES_URL is not set")
        }
        let name = "myday_test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        var server = ServerConfiguration()
        server.databaseURL = admin
        try await DatabaseDriverFactory.withDriver(configuration: server, logger: Logger(label: "test")) { driver in
            try await driver.read { db in try await db.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        }
        components.path = "/\(name)"
        return components.string!
    }
}

extension ServerConfiguration {
    /// `settings` for a `myday-server` child process, plus this configuration's database; PocketSphinx unless
    /// `settings` asks for the speech service.
    func processEnvironment(_ settings: [String: String]) -> [String: String] {
        let settings = ["MYDAY_SPEECH_SERVICE": "off"].merging(settings) { $1 }
        return databaseURL.map { settings.merging(["MYDAY_DATABASE_URL": $0]) { $1 } } ?? settings
    }
}

extension RateLimitPolicy {
    /// Limits no test reaches by accident.
    static var generous: RateLimitPolicy {
        var settings = RateLimitPolicy()
        // One a millisecond: more would make the interval 0 ms, and then a request whose clock was read a moment before
        // a parallel request's would be refused.
        let plenty = RateLimit(perMinute: 60_000)
        settings.authPerAddress = plenty
        settings.refreshPerAddress = plenty
        settings.loginPerAccount = plenty
        settings.passwordChecksPerUser = plenty
        settings.entriesPerUser = plenty
        settings.uploadsPerUser = plenty
        settings.exportsPerUser = plenty
        settings.searchesPerUser = plenty
        return settings
    }
}
