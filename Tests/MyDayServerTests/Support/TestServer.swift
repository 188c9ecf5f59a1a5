import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MyDayTestSupport
import NIOCore
import OpenAIStandIns
import SQLKit

@testable import MyDayServer

/// Runs the real server on a loopback port for one test and hands the test a client for it.
struct TestServer {
    let configuration: ServerConfiguration

    static func make(_ database: TestDatabase, adjust: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer
    {
        var configuration = try await database.freshConfiguration()
        adjust(&configuration)
        return TestServer(configuration: configuration)
    }

    /// Starts the server, runs `body` with a client of it, then shuts the server down gracefully. A server that stops
    /// before it listens fails the test with its error, and one that does not stop when asked is cancelled after a
    /// minute (`LoopbackApp`).
    func run<T: Sendable>(_ body: @escaping @Sendable (APIClient) async throws -> T) async throws -> T {
        let log = RecentLog()
        let logger = log.logger(label: "myday-test")
        let configuration = configuration
        do {
            return try await serve(configuration, logger: logger, body)
        } catch let error as LoopbackApp.DidNotStop {
            throw DidNotStop(stop: error, log: log.text)
        }
    }

    private func serve<T: Sendable>(
        _ configuration: ServerConfiguration, logger: Logger, _ body: @escaping @Sendable (APIClient) async throws -> T
    ) async throws -> T {
        try await LoopbackApp.run(
            { listening in try await buildApplication(configuration: configuration, logger: logger, onServerRunning: listening) },
            { port in
                let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(20)))
                client.connect()
                let result: Result<T, any Error>
                do {
                    result = .success(try await body(APIClient(connection: client, port: port)))
                } catch {
                    result = .failure(error)
                }
                try? await client.shutdown()
                return try result.get()
            })
    }

    /// The server did not stop when asked; `log` holds what its services last said.
    struct DidNotStop: Error, CustomStringConvertible {
        let stop: LoopbackApp.DidNotStop
        let log: String

        var description: String { "\(stop)\n\(log)" }
    }

    /// Opens the server's database directly, to check what a request did or did not change. Its writes wait for the
    /// running server's as long as a loaded machine needs: the server's writer may hold the SQLite file's lock for
    /// seconds while the processors serve other tests.
    func withDatabase<T>(_ body: (any DatabaseDriver) async throws -> T) async throws -> T {
        var patient = configuration
        patient.sqliteLockWait = .seconds(120)
        return try await DatabaseDriverFactory.withDriver(configuration: patient, logger: Logger(label: "test-db"), body)
    }

    /// Runs `body` with the housekeeping of this server's configuration, over its database, to run a round on demand.
    func withHousekeeping<T>(_ body: (HousekeepingService) async throws -> T) async throws -> T {
        let configuration = configuration
        return try await withDatabase { driver in
            let (blobs, disk, bucket) = try ServerParts.blobStorage(configuration)
            let parts = ServerParts(
                configuration: configuration, logger: Logger(label: "test-housekeeping"), driver: driver,
                users: UserStore(driver: driver), sessions: SessionStore(driver: driver),
                entries: EntryStore(driver: driver, rankedMatches: configuration.searchRankedMatches),
                exports: ExportStore(driver: driver, doorbell: JobDoorbell()), vocabulary: VocabularyStore(driver: driver),
                jobs: JobQueue(driver: driver, doorbell: JobDoorbell()),
                blobs: blobs, diskBlobs: disk, secret: [], vapidKey: VAPIDKey(privateKey: .init()),
                signer: URLSigner(secret: [1]),
                links: BlobLinks(configuration: configuration, secret: [1], bucket: bucket), registry: .init())
            return try await body(makeHousekeeping(parts))
        }
    }

    /// Marks the account's address confirmed in the database, for tests about something else on a server that mails
    /// nothing (`APIClient.confirmAddress` confirms through the mailed link).
    func markAddressConfirmed(userID: String) async throws {
        try await withDatabase { db in
            try await db.write { sql in
                try await sql.raw("UPDATE users SET email_verified_at = 1 WHERE id = \(bind: userID)").run()
            }
        }
    }

    /// Every finished blob under the blob directory (unfinished uploads in `tmp/` are not blobs).
    func storedBlobs() -> [String] {
        let root = configuration.blobDirectory
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var found: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, !relative.hasPrefix("tmp/") {
                found.append(relative)
            }
        }
        return found.sorted()
    }
}

extension TestServer {
    /// Whether this in-process server holds an unfinished upload open (see `OpenFiles`).
    func isWritingAnUpload() -> Bool {
        let folder = configuration.blobDirectory.appendingPathComponent("tmp").path + "/"
        return OpenFiles.of(getpid()).contains { $0.hasPrefix(folder) }
    }

    /// Files left in the blob store's temporary folder.
    func temporaryFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: configuration.blobDirectory.appendingPathComponent("tmp").path))
            ?? []
    }
}
