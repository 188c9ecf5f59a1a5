import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// The real executable, killed and signalled as an operating system would.
@Suite(.serialized) struct ServerProcessTests {
    private func dataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("myday-process-\(UUID().uuidString.prefix(8))")
    }

    @Test(arguments: TestDatabase.available)
    func aServerKilledMidUploadKeepsNoPartialAudio(_ database: TestDatabase) async throws {
        let configuration = try await database.freshConfiguration()
        let data = dataDirectory()
        let environment = configuration.databaseURL.map { ["MYDAY_DATABASE_URL": $0] } ?? [:]
        let audio = TestAudio.m4a

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
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !first.isWritingAnUpload() {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(first.isWritingAnUpload())
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

    @Test func sigtermStopsTheServerCleanly() async throws {
        let server = try await ServerProcess(dataDirectory: dataDirectory())
        let health = try await server.withClient { api in try await api.send(.get, "/healthz").status }
        #expect(health == .ok)
        server.kill(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    @Test func migrateBringsAnEmptyDatabaseUpToDateOnce() async throws {
        let data = dataDirectory()
        func migrate() throws -> String {
            let process = Process()
            process.executableURL = try ServerProcess.executable()
            process.arguments = ["migrate"]
            process.environment = ["MYDAY_DATA_DIR": data.path, "MYDAY_LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        #expect(try migrate().contains("Applied \(Migrator.all.map(\.version))"))
        #expect(try migrate().contains("Schema is up to date at version \(Migrator.all.last!.version)"))
    }
}

/// Transcription across real processes: killed mid-job, and several workers sharing one queue.
@Suite(.serialized) struct WorkerProcessTests {
    private func dataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("myday-workers-\(UUID().uuidString.prefix(8))")
    }

    private func jobs(_ configuration: ServerConfiguration) async throws -> [JobRecord] {
        try await TestServer(configuration: configuration).withDatabase { driver in
            try await driver.read { db in
                try await db.raw("SELECT \(unsafeRaw: JobRecord.columns) FROM jobs").all().map(JobRecord.init(row:))
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWorkerKilledMidJobLeavesTheEntryToBeTranscribedOnce(_ database: TestDatabase) async throws {
        var configuration = try await database.freshConfiguration()
        configuration.dataDirectory = dataDirectory()
        var environment = ["MYDAY_WORKERS": "1", "MYDAY_JOB_LEASE_SECONDS": "2"]
        if let url = configuration.databaseURL { environment["MYDAY_DATABASE_URL"] = url }
        let audio = try TestSpeech.m4a(Array(repeating: TestSpeech.diarySentence, count: 4).joined(separator: ". "))

        // Given a server that is transcribing an entry when it is killed
        let first = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        let (session, id) = try await first.withClient { api in
            let session = try await api.register()
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count)
            _ = try await api.upload(try #require(created.uploadURL), audio)
            _ = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            return (session, id)
        }
        try await pollUntil("the job runs") { try await jobs(configuration).first?.state == .running }
        #expect(try await jobs(configuration).first?.state == .running)
        first.kill()
        _ = try await first.waitForExit()

        // When a server starts again, then after the lease the job runs again and the entry is transcribed once
        let second = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        defer { second.kill(signal: SIGTERM) }
        try await pollUntil("the job succeeded") { try await jobs(configuration).first?.state == .succeeded }
        let finished = try await jobs(configuration)
        #expect(finished.count == 1 && finished.first?.state == .succeeded && finished.first?.attempts == 2)
        try await second.withClient { api in
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
            #expect(entry["status"] as? String == "transcribed")
            #expect(!(entry["transcript_raw"] as? String ?? "").isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aServerKilledAfterAcceptingADeletionFinishesItWhenItStartsAgain(_ database: TestDatabase) async throws {
        let configuration = try await database.freshConfiguration()
        let data = dataDirectory()
        var environment = ["MYDAY_WORKERS": "0"]
        if let url = configuration.databaseURL { environment["MYDAY_DATABASE_URL"] = url }
        var check = configuration
        check.dataDirectory = data
        let files = TestServer(configuration: check)

        // Given a server that accepted an account deletion and was killed before its worker ran
        let first = try await ServerProcess(dataDirectory: data, environment: environment)
        let (leaving, staying) = try await first.withClient { api in
            let leaving = try await api.register()
            let staying = try await api.register()
            try await api.createUploadedEntry(leaving)
            try await api.createUploadedEntry(staying)
            #expect(try await api.send(.delete, "/v1/me", token: leaving.accessToken).status == .accepted)
            return (leaving.userID, staying.userID)
        }
        first.kill()
        _ = try await first.waitForExit()
        #expect(try await files.rows(of: leaving) > 0)
        #expect(files.storedBlobs().contains { $0.contains(leaving) })

        // When it starts again with a worker, then the deletion completes and the other account is whole
        environment["MYDAY_WORKERS"] = "1"
        let second = try await ServerProcess(dataDirectory: data, environment: environment)
        defer { second.kill() }
        try await pollUntil("the account's rows are gone") { try await files.rows(of: leaving) == 0 }
        #expect(!files.storedBlobs().contains { $0.contains(leaving) })
        #expect(files.storedBlobs().contains { $0.contains(staying) })
        #expect(try await files.rows(of: staying) > 0)
    }

    @Test(arguments: TestDatabase.available)
    func aWorkerKilledMidExportLeavesNoArchiveAndTheExportCompletesAfterRestart(_ database: TestDatabase) async throws {
        var configuration = try await database.freshConfiguration()
        configuration.dataDirectory = dataDirectory()
        var environment = ["MYDAY_WORKERS": "0", "MYDAY_JOB_LEASE_SECONDS": "2", "MYDAY_RATE_LIMIT_ENTRIES_PER_MINUTE": "100000"]
        if let url = configuration.databaseURL { environment["MYDAY_DATABASE_URL"] = url }
        let files = TestServer(configuration: configuration)
        func status() async throws -> String? {
            try await files.withDatabase { driver in
                try await driver.read {
                    try await $0.raw("SELECT status FROM exports").first()?.decode(column: "status", as: String.self)
                }
            }
        }

        // Given an API node with 400 entries and an export asked for
        let api = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        defer { api.kill() }
        let (session, exportID) = try await api.withClient { client in
            let session = try await client.register()
            for index in 0..<400 {
                _ = try await client.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: [
                        "id": UUID().uuidString, "created_at": "2026-05-01T08:\(String(format: "%02d", index % 60)):00Z",
                        "tz": "UTC", "kind": "text", "text": "Entry number \(index).",
                    ])
            }
            let export = try await client.send(
                .post, "/v1/exports", token: session.accessToken, json: ["from": "2026-05-01", "to": "2026-05-01", "tz": "UTC"])
            return (session, try #require(export.json["id"] as? String))
        }

        // When a worker is killed while it builds the archive
        environment["MYDAY_WORKERS"] = "1"
        let first = try await ServerProcess(
            dataDirectory: configuration.dataDirectory, environment: environment, command: "worker")
        try await pollUntil("the export is building") { try await status() == "building" }
        first.kill()
        _ = try await first.waitForExit()

        // Then no archive is stored or offered
        #expect(try await status() == "building")
        #expect(!files.storedBlobs().contains { $0.hasPrefix("exports/") })

        // And a new worker takes the job over after its lease and completes a whole, valid archive
        let second = try await ServerProcess(
            dataDirectory: configuration.dataDirectory, environment: environment, command: "worker")
        defer { second.kill() }
        try await pollUntil("the export is ready") { try await status() == "ready" }
        try await api.withClient { client in
            let export = try await client.send(.get, "/v1/exports/\(exportID)", token: session.accessToken).json
            #expect(export["entries"] as? Int == 400)
            let archive = try await client.send(.get, try #require(export["download_url"] as? String))
            let listed = try ExportTests.openZip(archive.body)
            #expect(listed.count == 401 && listed["README.txt"] != nil)
        }
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil))
    func twoWorkerProcessesShareFiftyEntriesWithoutDoubleWork() async throws {
        var configuration = try await TestDatabase.postgres.freshConfiguration()
        configuration.dataDirectory = dataDirectory()
        let environment = ["MYDAY_DATABASE_URL": configuration.databaseURL!, "MYDAY_WORKERS": "0"]
        let audio = try TestSpeech.m4a("a short note")

        // Given an API node that only takes uploads, and fifty uploaded entries
        let api = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        defer { api.kill(signal: SIGTERM) }
        let session = try await api.withClient { client in
            let session = try await client.register()
            for _ in 0..<50 {
                let id = UUID()
                let created = try await client.createAudioEntry(session, id: id, sizeBytes: audio.count)
                _ = try await client.upload(try #require(created.uploadURL), audio)
                _ = try await client.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            }
            return session
        }

        // When two worker processes run the queue
        let workerEnvironment = ["MYDAY_DATABASE_URL": configuration.databaseURL!, "MYDAY_WORKERS": "2"]
        let workers = [
            try await ServerProcess(
                dataDirectory: configuration.dataDirectory, environment: workerEnvironment, command: "worker"),
            try await ServerProcess(
                dataDirectory: configuration.dataDirectory, environment: workerEnvironment, command: "worker"),
        ]
        defer { for worker in workers { worker.kill(signal: SIGTERM) } }
        try await pollUntil("fifty jobs succeeded", deadline: .seconds(240)) {
            try await jobs(configuration).filter { $0.state == .succeeded }.count == 50
        }

        // Then every entry was transcribed, each job claimed exactly once
        let finished = try await jobs(configuration)
        #expect(finished.count == 50 && finished.allSatisfy { $0.state == .succeeded && $0.attempts == 1 })
        try await api.withClient { client in
            var cursor = "0"
            var transcribed = 0
            while true {
                let page = try await client.send(.get, "/v1/entries?limit=500&since=\(cursor)", token: session.accessToken).json
                transcribed +=
                    (page["entries"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "transcribed" }.count
                cursor = page["next_cursor"] as? String ?? cursor
                if page["has_more"] as? Bool != true { break }
            }
            #expect(transcribed == 50)
        }
    }
}

@Suite struct TranscribeCommandTests {
    private func transcribe(_ audio: Data) throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("myday-cli-\(UUID().uuidString).m4a")
        try audio.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = try ServerProcess.executable()
        process.arguments = ["transcribe", file.path]
        process.environment = ["MYDAY_LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test func transcribesAFileAsTheWorkerWould() throws {
        let speech = try transcribe(try TestSpeech.m4a(TestSpeech.diarySentence))
        #expect((speech["words"] as? Int ?? 0) > 5 && speech["noSpeech"] as? Bool == false)
        #expect((speech["clean"] as? String)?.last == ".")
        let silence = try transcribe(try TestSpeech.silence(seconds: 2))
        #expect(silence["noSpeech"] as? Bool == true && silence["clean"] as? String == "")
    }
}

/// Exports of gigabytes, with a worker process whose memory is measured.
@Suite(.serialized) struct LargeExportTests {
    /// A valid 2 MB AAC recording (ffmpeg's sine wave at 128 kbit/s).
    private func twoMegabyteRecording(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("two-megabytes.m4a")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=128", "-c:a", "aac", "-b:a",
            "128k", file.path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0)
        return file
    }

    /// Builds an export of `count` 2 MB recordings with a worker process; answers the archive's path,
    /// its size, the export as the API shows it, and the worker's peak RSS in kB.
    private func export(recordings count: Int) async throws -> (
        archive: URL, recordingSize: Int, export: [String: Int], peakKilobytes: Int, cleanUp: @Sendable () -> Void
    ) {
        var configuration = try await TestDatabase.sqlite.freshConfiguration()
        configuration.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "myday-large-\(UUID().uuidString.prefix(8))")
        let dataDirectory = configuration.dataDirectory
        var environment = ["MYDAY_WORKERS": "0"]
        let files = TestServer(configuration: configuration)

        // Given the recordings (one file, linked into the blob store once per entry), all on 1 May
        let api = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        defer { api.kill() }
        let session = try await api.withClient { try await $0.register() }
        let recording = try twoMegabyteRecording(in: configuration.dataDirectory)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int)
        let userID = try #require(UUID(uuidString: session.userID))
        let blobDirectory = configuration.blobDirectory
        try await files.withDatabase { driver in
            try await driver.write { db in
                for index in 0..<count {
                    let id = UUID()
                    let key = BlobKey.audio(userID: userID, entryID: id)
                    let blob = blobDirectory.appendingPathComponent(key)
                    try FileManager.default.createDirectory(
                        at: blob.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try FileManager.default.linkItem(at: recording, to: blob)
                    let created = 1_777_593_600_000 + index * 30_000  // 2026-05-01T00:00:00Z onwards, 30 s apart
                    try await db.raw(
                        """
                        INSERT INTO entries (id, user_id, created_at, tz, duration_s, kind, status, filename, content_type,
                            audio_key, size_bytes, transcript_clean, change_seq, updated_at)
                        VALUES (\(bind: id.lowercased), \(bind: session.userID), \(bind: created), 'UTC', 128, 'audio', 'transcribed',
                            \(bind: "entry-\(index).m4a"), 'audio/mp4', \(bind: key), \(bind: size), 'A tone.', \(bind: index + 1),
                            \(bind: created))
                        """
                    ).run()
                }
            }
        }
        let exportID = try await api.withClient { client in
            let export = try await client.send(
                .post, "/v1/exports", token: session.accessToken, json: ["from": "2026-05-01", "to": "2026-05-01", "tz": "UTC"])
            return try #require(export.json["id"] as? String)
        }

        // When a worker process builds the export
        environment["MYDAY_WORKERS"] = "1"
        let worker = try await ServerProcess(
            dataDirectory: configuration.dataDirectory, environment: environment, command: "worker")
        defer { worker.kill() }
        try await pollUntil("the export is ready", deadline: .seconds(900)) {
            try await files.withDatabase { driver in
                try await driver.read {
                    try await $0.raw("SELECT status FROM exports").first()?.decode(column: "status", as: String.self) == "ready"
                }
            }
        }
        let peak = try #require(Self.peakResidentKilobytes(of: worker.process.processIdentifier))
        let export = try await api.withClient { client in
            let export = try await client.send(.get, "/v1/exports/\(exportID)", token: session.accessToken).json
            return export.compactMapValues { $0 as? Int }
        }
        let archive = blobDirectory.appendingPathComponent(BlobKey.export(userID: userID, exportID: UUID(uuidString: exportID)!))
        return (archive, size, export, peak, { try? FileManager.default.removeItem(at: dataDirectory) })
    }

    @Test func aTwoGigabyteExportKeepsTheWorkerUnder100MB() async throws {
        let result = try await export(recordings: 1000)
        defer { result.cleanUp() }
        // Then the archive holds 2 GB of audio, and the worker never used more than 100 MB of memory
        #expect(result.peakKilobytes < 100 * 1024, "peak RSS \(result.peakKilobytes / 1024) MB")
        #expect(result.export["audio_files"] == 1000)
        #expect((result.export["size_bytes"] ?? 0) > 1000 * result.recordingSize)
    }

    @Test func anArchiveOver4GBIsAValidZip64File() async throws {
        let result = try await export(recordings: 2100)
        defer { result.cleanUp() }
        // Then the archive is past the 32-bit limit, and Python's zipfile reads every member and its CRC
        #expect((result.export["size_bytes"] ?? 0) > 4 << 30)
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [
            "python3", "-c",
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(len(z.infolist()))",
            result.archive.path,
        ]
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        let members = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
        #expect(members.trimmingCharacters(in: .whitespacesAndNewlines) == "\(2100 * 2 + 1)")
    }

    /// The peak resident set size (VmHWM) of a running process, in kB.
    static func peakResidentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
