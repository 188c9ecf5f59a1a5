import Foundation
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// Background jobs across real processes: killed mid-job, and several workers sharing one queue.
@Suite(.serialized) struct WorkerProcessTests {
    private func dataDirectory() -> URL {
        TestFolder.path("myday-workers")
    }

    private func jobs(_ driver: any DatabaseDriver) async throws -> [JobRecord] {
        try await driver.read { db in
            try await db.raw("SELECT \(unsafeRaw: JobRecord.columns) FROM jobs").all().map(JobRecord.init(row:))
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWorkerKilledMidJobLeavesTheEntryToBeTranscribedOnce(_ database: TestDatabase) async throws {
        var configuration = try await database.freshConfiguration()
        configuration.dataDirectory = dataDirectory()
        let environment = configuration.processEnvironment(["MYDAY_WORKERS": "1", "MYDAY_JOB_LEASE_SECONDS": "2"])
        let audio = try await TestSpeech.m4a(TestSpeech.diarySentence)
        // A speech service that takes the recording and never answers keeps the job running until the kill.
        let hangingSpeech = try SilentListener()

        try await TestServer(configuration: configuration).withDatabase { driver in
            // Given a server whose worker is transcribing an entry when it is killed
            var hanging = environment
            hanging["MYDAY_ASR_URL"] = "http://127.0.0.1:\(hangingSpeech.port)"
            let first = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: hanging)
            let (session, id) = try await first.withClient { api in
                let session = try await api.register()
                return (session, try await api.createUploadedEntry(session, audio: audio))
            }
            try await pollUntil("the job runs", every: .milliseconds(50)) { try await jobs(driver).first?.state == .running }
            first.kill()
            _ = try await first.waitForExit()

            // When a server with the local recognizer starts again, then after the lease the job runs again
            // and the entry is transcribed once
            let second = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
            defer { second.kill(signal: SIGTERM) }
            try await pollUntil("the job succeeded", every: .milliseconds(100)) {
                try await jobs(driver).first?.state == .succeeded
            }
            let finished = try await jobs(driver)
            #expect(finished.count == 1 && finished.first?.state == .succeeded && finished.first?.attempts == 2)
            try await second.withClient { api in
                let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
                #expect(entry["status"] as? String == "transcribed")
                let heard = Set((entry["transcript_raw"] as? String ?? "").split(separator: " ").map(String.init))
                #expect(heard.intersection(TestSpeech.diarySentence.split(separator: " ").map(String.init)).count >= 5)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aServerKilledAfterAcceptingADeletionFinishesItWhenItStartsAgain(_ database: TestDatabase) async throws {
        var configuration = try await database.freshConfiguration()
        configuration.dataDirectory = dataDirectory()
        var environment = configuration.processEnvironment(["MYDAY_WORKERS": "0"])
        let files = TestServer(configuration: configuration)

        try await files.withDatabase { driver in
            // Given a server that accepted an account deletion and was killed before its worker ran
            let first = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
            let (leaving, staying) = try await first.withClient { api in
                let leaving = try await api.register()
                let staying = try await api.register()
                try await api.createUploadedEntry(leaving)
                try await api.createUploadedEntry(staying)
                let deletion = try await api.send(.delete, "/v1/me", token: leaving.accessToken)
                try #require(deletion.status == .accepted, "\(deletion.text)")
                return (leaving.userID, staying.userID)
            }
            first.kill()
            _ = try await first.waitForExit()
            #expect(try await TestServer.rows(of: leaving, in: driver) > 0)
            #expect(files.storedBlobs().contains { $0.contains(leaving) })

            // When it starts again with a worker, then the deletion completes and the other account is whole
            environment["MYDAY_WORKERS"] = "1"
            let second = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
            defer { second.kill() }
            try await pollUntil("the account's rows are gone", every: .milliseconds(100)) {
                try await TestServer.rows(of: leaving, in: driver) == 0
            }
            try await pollUntil("the account's audio is gone") { !files.storedBlobs().contains { $0.contains(leaving) } }
            #expect(files.storedBlobs().contains { $0.contains(staying) })
            #expect(try await TestServer.rows(of: staying, in: driver) > 0)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWorkerKilledMidExportLeavesNoArchiveAndTheExportCompletesAfterRestart(_ database: TestDatabase) async throws {
        var configuration = try await database.freshConfiguration()
        configuration.dataDirectory = dataDirectory()
        var environment = configuration.processEnvironment(["MYDAY_WORKERS": "0", "MYDAY_JOB_LEASE_SECONDS": "2"])
        let files = TestServer(configuration: configuration)
        let api = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        defer { api.kill() }
        let session = try await api.withClient { try await $0.register() }

        try await files.withDatabase { driver in
            // Given three written entries and, last of the day, a recording whose blob is a FIFO nobody writes to:
            // a worker that reaches it waits in the middle of the archive
            try await api.withClient { client in
                for minute in 0..<3 {
                    let reply = try await client.send(
                        .post, "/v1/entries", token: session.accessToken,
                        json: [
                            "id": UUID().uuidString, "created_at": "2026-05-01T08:0\(minute):00Z", "tz": "UTC", "kind": "text",
                            "text": "Entry number \(minute).",
                        ])
                    try #require(reply.status == .created, "\(reply.text)")
                }
            }
            let recording = try await ExportFixtures.insertRecording(
                userID: session.userID, createdAt: 1_777_626_000_000, blobs: configuration.blobDirectory, in: driver)
            #expect(mkfifo(recording.path, 0o600) == 0)
            let exportID = try await api.withClient {
                try await $0.requestExport(session, from: "2026-05-01", to: "2026-05-01")
            }

            // When a worker is killed while it waits to open the recording (a FIFO that nobody writes to: the
            // archive cannot be finished while it waits there)
            environment["MYDAY_WORKERS"] = "1"
            let first = try await ServerProcess(
                dataDirectory: configuration.dataDirectory, environment: environment, command: "worker")
            try await pollUntil("the worker waits on the recording", every: .milliseconds(50)) {
                OpenFiles.isWaitingToOpenAFIFO(first.child.processIdentifier)
            }
            #expect(try await ExportFixtures.exportStatus(driver) == "building")
            first.kill()
            _ = try await first.waitForExit()

            // Then no archive is stored or offered
            #expect(try await ExportFixtures.exportStatus(driver) == "building")
            #expect(!files.storedBlobs().contains { $0.hasPrefix("exports/") })

            // And once the recording is a file again, a new worker takes the job over after its lease and
            // completes a whole, valid archive
            try FileManager.default.removeItem(at: recording)
            try await TestAudio.m4a().write(to: recording)
            let second = try await ServerProcess(
                dataDirectory: configuration.dataDirectory, environment: environment, command: "worker")
            defer { second.kill() }
            try await pollUntil("the export is ready", every: .milliseconds(100)) {
                try await ExportFixtures.exportStatus(driver) == "ready"
            }
            try await api.withClient { client in
                let export = try await client.send(.get, "/v1/exports/\(exportID)", token: session.accessToken).json
                #expect(export["entries"] as? Int == 4 && export["audio_files"] as? Int == 1)
                let archive = try await client.send(.get, try #require(export["download_url"] as? String))
                let listed = try await ExportTests.openZip(archive.body)
                #expect(
                    listed.count == 8 && listed["README.txt"] != nil && listed["index.html"] != nil, "\(listed.keys.sorted())")
                let audio = try #require(listed.first { $0.key.hasSuffix(".m4a") }?.value)
                #expect(audio.sha256 == ExportTests.sha256(try await TestAudio.m4a()))
            }
        }
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil))
    func twoWorkerProcessesShareFiftyEntriesWithoutDoubleWork() async throws {
        var configuration = try await TestDatabase.postgres.freshConfiguration()
        configuration.dataDirectory = dataDirectory()
        let environment = ["MYDAY_DATABASE_URL": configuration.databaseURL!, "MYDAY_WORKERS": "0"]
        let audio = try await TestSpeech.m4a("a short note")

        // Given an API node that only takes uploads, and fifty uploaded entries
        let api = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        defer { api.kill(signal: SIGTERM) }
        let session = try await api.withClient { client in
            let session = try await client.register()
            for _ in 0..<50 { try await client.createUploadedEntry(session, audio: audio) }
            return session
        }

        try await TestServer(configuration: configuration).withDatabase { driver in
            // When two worker processes of two slots each run the queue
            let workerEnvironment = ["MYDAY_DATABASE_URL": configuration.databaseURL!, "MYDAY_WORKERS": "2"]
            let workers = [
                try await ServerProcess(
                    dataDirectory: configuration.dataDirectory, environment: workerEnvironment, command: "worker"),
                try await ServerProcess(
                    dataDirectory: configuration.dataDirectory, environment: workerEnvironment, command: "worker"),
            ]
            defer { for worker in workers { worker.kill(signal: SIGTERM) } }
            try await pollUntil("fifty jobs succeeded", deadline: .seconds(600), every: .milliseconds(250)) {
                try await jobs(driver).filter { $0.state == .succeeded }.count == 50
            }

            // Then every entry was transcribed, each job claimed exactly once, and both workers took part
            let finished = try await jobs(driver)
            #expect(finished.count == 50 && finished.allSatisfy { $0.state == .succeeded && $0.attempts == 1 })
            for worker in workers { #expect(worker.logs.contains("job succeeded"), "\(worker.logs)") }
        }
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
