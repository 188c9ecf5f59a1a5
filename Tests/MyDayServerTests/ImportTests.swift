import Foundation
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// Entries imported from files: one entry per file's bytes, at the moment the file says it was recorded, transcribed
/// after the person's new recordings.
@Suite struct ImportTests {
    private static let hashA = String(repeating: "a1", count: 32)
    private static let hashB = String(repeating: "b2", count: 32)

    private func importBody(_ id: UUID, sha256: Any?, createdAt: String = "2026-05-01T08:30:00Z", size: Int = 1000) -> [String:
        Any]
    {
        var body: [String: Any] = [
            "id": id.uuidString.lowercased(), "created_at": createdAt, "tz": "Pacific/Auckland", "duration_s": 1,
            "kind": "audio", "size_bytes": size, "content_type": "audio/mp4",
        ]
        body["source_sha256"] = sha256
        return body
    }

    @Test(arguments: TestDatabase.available)
    func theSameSourceTwiceAnswersTheEntryItMadeAndABadHashChangesNothing(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        try await server.run { api in
            let session = try await api.register()
            let other = try await api.register()
            // Given a file imported once
            let first = UUID()
            let made = try await api.send(
                .post, "/v1/entries", token: session.accessToken, json: importBody(first, sha256: Self.hashA))
            #expect(made.status == .created)

            // When the same bytes are imported again under another id, then the first entry is answered and none is made
            let again = try await api.send(
                .post, "/v1/entries", token: session.accessToken, json: importBody(UUID(), sha256: Self.hashA))
            #expect(again.status == .ok)
            #expect((again.json["entry"] as? [String: Any])?["id"] as? String == first.uuidString.lowercased())
            // (another file, and the same file for another person, are new entries)
            let otherFile = try await api.send(
                .post, "/v1/entries", token: session.accessToken, json: importBody(UUID(), sha256: Self.hashB))
            #expect(otherFile.status == .created)
            let otherPerson = try await api.send(
                .post, "/v1/entries", token: other.accessToken, json: importBody(UUID(), sha256: Self.hashA))
            #expect(otherPerson.status == .created)

            // And a hash that is not lowercase hex SHA-256 is refused, with nothing made
            for bad: Any in [String(repeating: "A1", count: 32), "abc", String(repeating: "g", count: 64), 42] {
                let refused = try await api.send(
                    .post, "/v1/entries", token: session.accessToken, json: importBody(UUID(), sha256: bad))
                #expect(refused.status == .unprocessableContent || refused.status == .badRequest, "\(bad): \(refused.status)")
            }
            let page = try await api.send(.get, "/v1/entries", token: session.accessToken, expecting: .ok)
            #expect((page.json["entries"] as? [[String: Any]])?.count == 2)

            // When the imported entry is deleted, the file may be imported again, as a new entry
            try await api.send(.delete, "/v1/entries/\(first)", token: session.accessToken, expecting: .noContent)
            let afterDeletion = try await api.send(
                .post, "/v1/entries", token: session.accessToken, json: importBody(UUID(), sha256: Self.hashA))
            #expect(afterDeletion.status == .created)
        }
    }

    @Test(arguments: TestDatabase.available)
    func completingAnImportMovesItToTheTimeItsTagsOrItsNameGive(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        // Given an m4a whose container says 2026-03-12 10:30 UTC, and one without tags
        let tagged = try await TestMedia.ffmpegOutput(
            ["-f", "lavfi", "-i", "sine=duration=1", "-metadata", "creation_time=2026-03-12T10:30:00Z"], ext: "m4a")
        let untagged = try await TestMedia.ffmpegOutput(["-f", "lavfi", "-i", "sine=duration=1"], ext: "m4a")
        try await server.run { api in
            let session = try await api.register()
            func importing(_ audio: Data, sha256: String, complete: [String: Any]) async throws -> [String: Any] {
                // created as a browser creates it: at the file's modification time, in the person's zone (Auckland)
                let id = UUID()
                let created = try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: importBody(id, sha256: sha256, createdAt: "2026-05-01T08:30:00Z", size: audio.count),
                    expecting: .created)
                let url = try #require((created.json["upload"] as? [String: Any])?["url"] as? String)
                try #require(try await api.upload(url, audio).status == .noContent)
                return try await api.send(
                    .post, "/v1/entries/\(id)/complete", token: session.accessToken, json: complete, expecting: .ok
                ).json
            }

            // When each is completed asking for the recording time
            let fromTags = try await importing(
                tagged, sha256: Self.hashA, complete: ["read_recording_time": true, "file_name": "20250101 090000.m4a"])
            let fromName = try await importing(
                untagged, sha256: Self.hashB, complete: ["read_recording_time": true, "file_name": "20260312 233000.m4a"])
            let asSent = try await importing(
                untagged, sha256: String(repeating: "c3", count: 32), complete: ["file_name": "20260312 233000.m4a"])

            // Then the tagged one is at its container's instant, the other at the time its name gives in its zone (the
            // same instant), and one completed without asking keeps the time it was created with
            #expect(fromTags["created_at"] as? String == "2026-03-12T10:30:00.000Z")
            #expect((fromTags["filename"] as? String)?.hasPrefix("2026-03-12_23-30-00") == true)
            #expect(fromName["created_at"] as? String == "2026-03-12T10:30:00.000Z")
            #expect(asSent["created_at"] as? String == "2026-05-01T08:30:00.000Z")
            #expect(fromTags["status"] as? String == "uploaded")
        }
    }

    @Test(arguments: TestDatabase.available)
    func importedRecordingsAreTranscribedAfterNewOnesOldestFirst(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        let audio = try await TestAudio.m4a()
        let (newer, older, fresh) = try await server.run { api in
            let session = try await api.register()
            func imported(recordedAt: String, sha256: String) async throws -> UUID {
                let id = UUID()
                let created = try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: importBody(id, sha256: sha256, createdAt: recordedAt, size: audio.count), expecting: .created)
                let url = try #require((created.json["upload"] as? [String: Any])?["url"] as? String)
                try #require(try await api.upload(url, audio).status == .noContent)
                try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken, expecting: .ok)
                return id
            }
            // Given two imported recordings, the one of 2025 completed before the one of 2024, then a new recording
            let newer = try await imported(recordedAt: "2025-06-01T08:00:00Z", sha256: Self.hashA)
            let older = try await imported(recordedAt: "2024-06-01T08:00:00Z", sha256: Self.hashB)
            let fresh = try await api.createUploadedEntry(session, audio: audio)
            return (newer, older, fresh)
        }
        // When a worker takes their transcriptions one by one
        let order = try await server.withDatabase { driver in
            let queue = JobQueue(driver: driver)
            var order: [UUID] = []
            while let job = try await queue.claim(kinds: [TranscriptionHandler.kind], workerID: "w", lease: .seconds(60)) {
                order.append(try JSONDecoder().decode(TranscriptionJob.self, from: Data(job.payload.utf8)).entryID)
                #expect(try await queue.succeed(job, workerID: "w"))
            }
            return order
        }
        // Then the new recording comes first, then the imported ones, oldest first
        #expect(order == [fresh, older, newer])
    }

    @Test(arguments: TestDatabase.available)
    func flacAndBareAACAreKeptAsTheyCameAndMustBeWhatTheySay(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        let flac = try await TestMedia.ffmpegOutput(["-f", "lavfi", "-i", "sine=duration=2"], ext: "flac")
        let aac = try await TestMedia.ffmpegOutput(["-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac"], ext: "aac")
        try await server.run { api in
            let session = try await api.register()
            func send(_ audio: Data, as contentType: String) async throws -> APIClient.Reply {
                let id = UUID()
                let created = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count, contentType: contentType)
                #expect(created.reply.status == .created, "\(created.reply.text)")
                let url = try #require(created.uploadURL)
                #expect(try await api.upload(url, audio, contentType: contentType).status == .noContent)
                return try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            }
            // Given a FLAC file and a bare AAC file, each declared as what it is, then each is kept with its length and name
            for (audio, type, ext) in [(flac, "audio/flac", "flac"), (aac, "audio/aac", "aac")] {
                let completed = try await send(audio, as: type)
                #expect(completed.status == .ok, "\(type): \(completed.text)")
                #expect(abs((completed.json["duration_s"] as? Double ?? 0) - 2) < 0.2, "\(type): \(completed.text)")
                #expect((completed.json["filename"] as? String)?.hasSuffix(".\(ext)") == true)
            }
            // And a file that is not what it was declared as is refused
            let mislabelled = try await send(try await TestAudio.m4a(), as: "audio/flac")
            #expect(mislabelled.status == .unprocessableContent, "\(mislabelled.text)")
        }
    }
}
