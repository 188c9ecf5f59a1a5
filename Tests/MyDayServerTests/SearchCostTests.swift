import Foundation
import Logging
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// One person's searches cannot stall the server: each person searches at a bounded rate, and a read that runs past
/// the time limit is stopped on both engines.
@Suite struct SearchCostTests {
    @Test(arguments: TestDatabase.available)
    func eachPersonSearchesAtABoundedRate(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.rateLimits.searchesPerUser = RateLimit(perMinute: 3) }
        try await server.run { api in
            // Given one person who has searched three times in a moment
            let busy = try await api.register()
            for _ in 0..<3 {
                #expect(try await api.send(.get, "/v1/search?q=walk", token: busy.accessToken).status == .ok)
            }
            // Then the next search waits
            let fourth = try await api.send(.get, "/v1/search?q=walk", token: busy.accessToken)
            #expect(fourth.status == .tooManyRequests && fourth.headers[.retryAfter] != nil)
            // And another person searches as usual
            let other = try await api.register()
            #expect(try await api.send(.get, "/v1/search?q=walk", token: other.accessToken).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aReadPastTheTimeLimitIsStopped(_ database: TestDatabase) async throws {
        var configuration = try await database.freshConfiguration()
        configuration.readTimeLimit = .milliseconds(200)
        try await DatabaseDriverFactory.withDriver(configuration: configuration, logger: Logger(label: "test")) {
            (driver: any DatabaseDriver) async throws -> Void in
            // Given a read that would take far longer than the limit (hundreds of millions of steps, or a sleep)
            let endless =
                driver.engine == .sqlite
                ? "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000000) SELECT COUNT(*) FROM n"
                : "SELECT CAST(pg_sleep(600) IS NULL AS INT)"
            // Then it is stopped, and the next read works
            await #expect(throws: ReadTookTooLong.self) { _ = try await driver.readIntegers(SQLQueryString(endless)) }
            let after = try await driver.readIntegers("SELECT 1")
            #expect(after == [[1]])
        }
    }
}
