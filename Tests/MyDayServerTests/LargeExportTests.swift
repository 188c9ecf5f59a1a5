import ChildProcesses
import Foundation
import MyDayTestSupport
import SQLKit
import Testing
import ZIPLimits

@testable import MyDayServer

/// Audio entries written straight into a server's database and blob folder, for exports too large to upload.
enum ExportFixtures {
    /// Inserts a transcribed audio entry of `userID` recorded at `createdAt` (ms since 1970, UTC) and answers where its
    /// blob goes (the folder exists; the file does not).
    static func insertRecording(
        userID: String, createdAt: Int, sizeBytes: Int = 0, blobs: URL, in driver: any DatabaseDriver
    ) async throws -> URL {
        let id = UUID()
        let key = BlobKey.audio(userID: try #require(UUID(uuidString: userID)), entryID: id)
        let blob = blobs.appendingPathComponent(key)
        try FileManager.default.createDirectory(at: blob.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await driver.write { db in
            let sequence =
                try await db.raw("SELECT COALESCE(MAX(change_seq), 0) + 1 AS next FROM entries").first()?.decode(
                    column: "next", as: Int.self) ?? 1
            try await db.raw(
                """
                INSERT INTO entries (id, user_id, created_at, tz, duration_s, kind, status, filename, content_type,
                    audio_key, size_bytes, transcript_clean, change_seq, updated_at)
                VALUES (\(bind: id.lowercased), \(bind: userID), \(bind: createdAt), 'UTC', 128, 'audio', 'transcribed',
                    \(bind: "entry-\(id.lowercased).m4a"), 'audio/mp4', \(bind: key), \(bind: sizeBytes), 'A tone.',
                    \(bind: sequence), \(bind: createdAt))
                """
            ).run()
        }
        return blob
    }

    /// The status of the (one) export in `driver`'s database.
    static func exportStatus(_ driver: any DatabaseDriver) async throws -> String? {
        try await driver.read {
            try await $0.raw("SELECT status FROM exports").first()?.decode(column: "status", as: String.self)
        }
    }
}

/// Exports of hundreds of megabytes built by a worker process whose memory is measured, and the ZIP64 format.
@Suite(.serialized) struct LargeExportTests {
    /// A valid 2 MB AAC recording (ffmpeg's sine wave at 128 kbit/s).
    private func twoMegabyteRecording(in folder: URL) async throws -> URL {
        let file = folder.appendingPathComponent("two-megabytes.m4a")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await TestMedia.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:duration=128", "-c:a", "aac", "-b:a", "128k", file.path,
        ])
        return file
    }

    /// Builds an export of `count` 2 MB recordings with a worker process; answers the export as the API shows it and
    /// the worker's peak RSS in kB.
    private func export(recordings count: Int) async throws -> (export: [String: Int], recordingSize: Int, peakKilobytes: Int) {
        var configuration = try await TestDatabase.sqlite.freshConfiguration()
        configuration.dataDirectory = TestFolder.path("myday-large")
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        var environment = ["MYDAY_WORKERS": "0"]
        let files = TestServer(configuration: configuration)

        // Given the recordings (one file, linked into the blob store once per entry), all on 1 May
        let api = try await ServerProcess(dataDirectory: configuration.dataDirectory, environment: environment)
        defer { api.kill() }
        let session = try await api.withClient { try await $0.register() }
        let recording = try await twoMegabyteRecording(in: configuration.dataDirectory)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int)
        return try await files.withDatabase { driver in
            for index in 0..<count {
                let created = 1_777_593_600_000 + index * 30_000  // 2026-05-01T00:00:00Z onwards, 30 s apart
                let blob = try await ExportFixtures.insertRecording(
                    userID: session.userID, createdAt: created, sizeBytes: size, blobs: configuration.blobDirectory,
                    in: driver)
                try FileManager.default.linkItem(at: recording, to: blob)
            }
            let exportID = try await api.withClient {
                try await $0.requestExport(session, from: "2026-05-01", to: "2026-05-01")
            }

            // When a worker process builds the export
            environment["MYDAY_WORKERS"] = "1"
            let worker = try await ServerProcess(
                dataDirectory: configuration.dataDirectory, environment: environment, command: "worker")
            defer { worker.kill() }
            try await pollUntil("the export is ready", deadline: .seconds(900), every: .milliseconds(250)) {
                try await ExportFixtures.exportStatus(driver) == "ready"
            }
            let peak = try #require(Self.peakResidentKilobytes(of: worker.child.processIdentifier))
            let export = try await api.withClient { client in
                try await client.send(.get, "/v1/exports/\(exportID)", token: session.accessToken).json.compactMapValues {
                    $0 as? Int
                }
            }
            return (export, size, peak)
        }
    }

    @Test func theWorkersMemoryDoesNotGrowWithTheExport() async throws {
        // Given exports of 25 and of 150 two-megabyte recordings (50 MB and 300 MB of audio)
        let small = try await export(recordings: 25)
        let large = try await export(recordings: 150)

        // Then both archives hold all their audio
        #expect(small.export["audio_files"] == 25 && large.export["audio_files"] == 150)
        #expect((large.export["size_bytes"] ?? 0) > 150 * large.recordingSize)

        // And six times the audio costs the worker no more than a few megabytes of memory more, well under 100 MB
        let growth = large.peakKilobytes - small.peakKilobytes
        #expect(growth < 16 * 1024, "peak RSS \(small.peakKilobytes / 1024) MB → \(large.peakKilobytes / 1024) MB")
        #expect(large.peakKilobytes < 100 * 1024, "peak RSS \(large.peakKilobytes / 1024) MB")
    }

    /// ZIP64 takes over when an offset or a size passes 32 bits; the zip library's limit is lowered here (the suite
    /// runs alone in its process), so that a small export takes the same path a 4 GB one takes.
    @Test func anArchivePastTheZip32LimitsIsAValidZip64File() async throws {
        ZIPLimits.lower(sizesAndOffsets: 4096, entries: 8)
        defer { ZIPLimits.restore() }
        let server = try await TestServer.make(.sqlite) { $0.workers = 1 }
        try await server.run { api in
            // Given twelve entries, three of them recordings, whose archive passes the lowered limits
            let session = try await api.register()
            for _ in 0..<3 { try await api.createUploadedEntry(session) }
            for hour in 10..<19 {
                let reply = try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: [
                        "id": UUID().uuidString, "created_at": "2026-05-01T\(hour):00:00Z", "tz": "Europe/Paris",
                        "kind": "text", "text": String(repeating: "A long afternoon by the sea. ", count: 40),
                    ])
                try #require(reply.status == .created, "\(reply.text)")
            }
            try await pollUntil("the recordings are transcribed", every: .milliseconds(100)) {
                let page = try await api.send(.get, "/v1/entries", token: session.accessToken).json["entries"] as? [[String: Any]]
                return page?.allSatisfy { $0["status"] as? String == "transcribed" } == true
            }

            // When they are exported
            let asked = try await api.send(
                .post, "/v1/exports", token: session.accessToken,
                json: ["from": "2026-05-01", "to": "2026-05-01", "tz": "Europe/Paris"])
            let id = try #require(asked.json["id"] as? String, "\(asked.text)")
            var export: [String: Any] = [:]
            try await pollUntil("the export is ready", every: .milliseconds(100)) {
                export = try await api.send(.get, "/v1/exports/\(id)", token: session.accessToken).json
                return export["status"] as? String == "ready"
            }
            let archive = try await api.send(.get, try #require(export["download_url"] as? String)).body

            // Then the archive ends with ZIP64's end-of-central-directory record and its locator,
            // and Python's zipfile reads every member with its CRC
            #expect(archive.range(of: Data([0x50, 0x4B, 0x06, 0x06])) != nil)
            #expect(archive.range(of: Data([0x50, 0x4B, 0x06, 0x07])) != nil)
            let listed = try await ExportTests.openZip(archive)
            // three recordings with their text, nine written entries, the README, the index page and the sums
            #expect(listed.count == 18, "\(listed.keys.sorted())")
            let audio = try await TestAudio.m4a()
            let recordings = listed.filter { $0.key.hasSuffix(".m4a") }.map(\.value.sha256)
            #expect(recordings == Array(repeating: ExportTests.sha256(audio), count: 3))
        }
    }

    /// The peak resident set size (VmHWM) of a running process, in kB.
    static func peakResidentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
