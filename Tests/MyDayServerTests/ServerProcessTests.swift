import ChildProcesses
import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// The real executable, killed and signalled as an operating system would.
@Suite(.serialized) struct ServerProcessTests {
    private func dataDirectory() -> URL {
        TestFolder.path("myday-process")
    }

    @Test(arguments: TestDatabase.available)
    func aServerKilledMidUploadKeepsNoPartialAudio(_ database: TestDatabase) async throws {
        let configuration = try await database.freshConfiguration()
        let data = dataDirectory()
        let environment = configuration.databaseURL.map { ["MYDAY_DATABASE_URL": $0] } ?? [:]
        let audio = try await TestAudio.m4a()

        // Given an entry whose upload is half sent when the server is killed
        let first = try await ServerProcess(dataDirectory: data, environment: environment)
        let (session, id, path) = try await first.withClient { api in
            let session = try await api.register()
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count)
            return (session, id, APIClient.relative(created.uploadURL ?? ""))
        }
        let socket = try RawHTTP.open(port: first.port)
        try socket.send(
            Data(
                "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: audio/mp4\r\nContent-Length: \(audio.count)\r\n\r\n"
                    .utf8)
                + audio.prefix(audio.count / 2))
        try await pollUntil("the server writes the upload") { first.isWritingAnUpload() }
        first.kill()
        _ = try await first.waitForExit()
        socket.close()

        // When the server starts again
        let second = try await ServerProcess(dataDirectory: data, environment: environment)
        defer { second.kill(signal: SIGTERM) }
        try await second.withClient { api in
            // Then no audio is visible, the entry waits for its upload, and the retry succeeds
            let key = "audio/\(session.userID)/\(id.uuidString.lowercased())"
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("blobs/\(key)").path))
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken)
            #expect(entry.json["status"] as? String == "pending_upload")
            let retry = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count)
            #expect(try await api.upload(try #require(retry.uploadURL), audio).status == .noContent)
            let complete = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            #expect(complete.json["status"] as? String == "uploaded")
            let stored = try Data(contentsOf: data.appendingPathComponent("blobs/\(key)"))
            #expect(stored == audio)
        }
    }

    @Test func theServerHashesPasswordsWithBcryptCost12() async throws {
        // Given the real executable with its settings (tests in process hash at a lower cost to run faster)
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory()
        let server = try await ServerProcess(dataDirectory: configuration.dataDirectory)
        defer { server.kill(signal: SIGTERM) }
        // When someone registers, then the stored hash is bcrypt with cost 12
        try await server.withClient { api in _ = try await api.register("cost@example.com") }
        let hash = try await TestServer(configuration: configuration).withDatabase { driver in
            try await driver.read {
                try await $0.raw("SELECT password_hash FROM users").first()?.decode(column: "password_hash", as: String.self)
            }
        }
        #expect(hash?.hasPrefix("$2b$12$") == true, "\(hash ?? "no hash")")
    }

    @Test func dataFilesAreTheOwnersAloneAndFailedSignInsAreLoggedWithTheAddressOnly() async throws {
        // Given the real executable, an account with a recording, and two failed sign-ins
        let folder = dataDirectory()
        let server = try await ServerProcess(dataDirectory: folder)
        defer { server.kill(signal: SIGTERM) }
        try await server.withClient { api in
            let session = try await api.register("owner-only@example.com")
            try await api.createUploadedEntry(session)
            let wrong = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": "owner-only@example.com", "password": "typed-secret-0417"])
            #expect(wrong.status == .unauthorized)
            let unknown = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": "typed-unknown@example.com", "password": "typed-secret-0417"])
            #expect(unknown.status == .unauthorized)
        }
        // Then every file and folder under the data directory is readable by its owner only
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var checked = 0
        while let file = files?.nextObject() as? URL {
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int ?? 0o777
            #expect(mode & 0o077 == 0, "\(file.path) has mode \(String(mode, radix: 8))")
            checked += 1
        }
        #expect(checked > 3)
        // And both failures are logged with the client's address, never with what was typed
        try await pollUntil("both failed sign-ins logged") {
            server.logs.contains("security: wrong password") && server.logs.contains("security: sign-in to no account")
        }
        let logs = server.logs
        #expect(logs.components(separatedBy: "address=127.0.0.1").count >= 3)
        #expect(!logs.contains("typed-secret-0417") && !logs.contains("typed-unknown"))
    }

    @Test func sigtermStopsTheServerCleanly() async throws {
        let server = try await ServerProcess(dataDirectory: dataDirectory())
        let health = try await server.withClient { api in try await api.send(.get, "/healthz").status }
        #expect(health == .ok)
        server.kill(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    @Test func migrateBringsAnEmptyDatabaseUpToDateOnce() async throws {
        let data = dataDirectory()
        func migrate() async throws -> String {
            try await ChildProcess.succeed(
                try ServerProcess.executable().path, ["migrate"],
                environment: ["MYDAY_DATA_DIR": data.path, "MYDAY_LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"]
            ).text
        }
        #expect(try await migrate().contains("Applied \(Migrator.all.map(\.version))"))
        #expect(try await migrate().contains("Schema is up to date at version \(Migrator.all.last!.version)"))
    }
}
