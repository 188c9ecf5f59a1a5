import Foundation
import Logging
import MyDayModels
import SQLKit
import Testing

@testable import MyDayServer

/// A PostgreSQL driver stops when asked, whatever its database does.
@Suite struct PostgresDriverTests {
    @Test func aDatabaseThatNeverAnswersDoesNotHoldUpTheStop() async throws {
        // Given a driver whose database takes connections and never answers, and a read waiting for one
        let database = try SilentListener()
        let driver = try PostgresDriver(
            url: "postgres://diary@127.0.0.1:\(database.port)/diary", closeLimit: .seconds(5), logger: Logger(label: "test"))
        let read = Task { try await driver.read { try await $0.raw("SELECT 1").run() } }
        try await database.awaitConnection()
        // When the driver is shut down
        let stop = Task { await driver.shutdown() }
        // Then it stops (left waiting, the test fails after a minute instead of hanging), and the read fails
        #expect(await value(of: stop, within: .seconds(60)) != nil, "the driver did not stop")
        let readFailed = await read.result
        #expect(throws: (any Error).self) { try readFailed.get() }
    }
}
