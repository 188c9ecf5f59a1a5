import Foundation
import Logging
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// The embedded database's connections wait for each other's locks as long as configured.
@Suite struct SQLiteDriverTests {
    @Test func aLockWaitShorterThanASecondIsKeptToTheMillisecond() async throws {
        // Given a configuration whose connections wait 250 ms for another connection's lock
        var configuration = try await TestDatabase.sqlite.freshConfiguration()
        configuration.sqliteLockWait = .milliseconds(250)
        try await DatabaseDriverFactory.withDriver(configuration: configuration, logger: Logger(label: "test")) {
            (driver: any DatabaseDriver) async throws -> Void in
            // Then the writer and every reader wait that long
            let timeout: @Sendable (any SQLDatabase) async throws -> Int? = {
                try await $0.raw("PRAGMA busy_timeout").first()?.decode(column: "timeout", as: Int.self)
            }
            #expect(try await driver.write(timeout) == 250)
            for _ in 0..<8 { #expect(try await driver.read(timeout) == 250) }
        }
    }
}
