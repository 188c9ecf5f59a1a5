import Foundation
import HTTPTypes
import MyDayTestSupport
import ObjectStorage
import Testing

@testable import MyDayServer

/// The server with its blobs in an S3-compatible bucket (moto on loopback, every signature checked): clients upload
/// and download there with presigned URLs, the server checks, transcribes, exports and deletes there.
@Suite struct ObjectStorageServerTests {
    @Test(arguments: TestDatabase.available)
    func audioGoesStraightToTheBucketAndIsCheckedThere(_ database: TestDatabase) async throws {
        let (server, bucket) = try await TestServer.withBucket(database)
        try await server.run { api in
            let session = try await api.register()
            let audio = try await TestAudio.m4a()

            // Given a new audio entry: its upload URL is the bucket's, for the entry's incoming key, signed for its type
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count)
            let url = try #require(created.uploadURL)
            #expect(url.hasPrefix("\(bucket.location.endpoint.absoluteString)/\(bucket.location.bucket)/\(bucket.location.keyPrefix)incoming/"))
            #expect(url.contains("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost"))
            #expect((created.reply.json["upload"] as? [String: Any])?["headers"] as? [String: String] == ["Content-Type": "audio/mp4"])

            // When other bytes than declared are sent, the bucket refuses them, and completing finds no audio
            #expect(try await api.upload(url, audio + Data([0])).status == .forbidden)
            #expect(try await api.upload(url, audio, contentType: "audio/webm").status == .forbidden)
            let early = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            #expect(early.status == .unprocessableContent)

            // When the declared bytes are sent and the upload completed
            #expect(try await api.upload(url, audio).status == .ok)
            let completed = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)

            // Then the entry is uploaded and its audio moved to its place; nothing waits in incoming/
            #expect(completed.json["status"] as? String == "uploaded")
            let audioKey = "audio/\(session.userID)/\(id.uuidString.lowercased())"
            #expect(try await bucket.allKeys() == [audioKey])
            #expect(try await bucket.head(audioKey)?.size == audio.count)

            // And the audio link is a presigned download of the bucket that names the file
            let link = try await api.send(.get, "/v1/entries/\(id)/audio", token: session.accessToken, expecting: .ok)
            let played = try await api.send(.get, try #require(link.json["url"] as? String))
            #expect(played.status == .ok && played.body == audio)
            #expect(played.headers[.contentDisposition]?.hasPrefix("inline; filename=\"2026-05-01_10-30-00_") == true)
            #expect(played.headers[.contentType] == "audio/mp4")
        }
    }

    @Test(arguments: TestDatabase.available)
    func anUploadThatIsNotAudioIsRemovedFromTheBucket(_ database: TestDatabase) async throws {
        let (server, bucket) = try await TestServer.withBucket(database)
        try await server.run { api in
            // Given bytes that are no audio, uploaded as declared
            let session = try await api.register()
            let id = try await api.createAndUpload(session, TestAudio.notAudio)

            // When the upload is completed
            let completed = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)

            // Then it is refused, and nothing of it stays in the bucket
            #expect(completed.status == .unprocessableContent)
            #expect(try await bucket.allKeys().isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func theWorkerTranscribesFromTheBucketAndAnExportIsUploadedInParts(_ database: TestDatabase) async throws {
        let (server, bucket) = try await TestServer.withBucket(database) { $0.workers = 1 }
        try await server.run { api in
            let session = try await api.register()
            // Given a recording recognised by the server, and a long one (5.4 MB) the phone transcribed
            let spoken = try await api.createUploadedEntry(session, audio: try await TestSpeech.m4a(TestSpeech.diarySentence))
            let long = TestMedia.wav(seconds: 170)
            let longID = UUID()
            let created = try await api.createAudioEntry(session, id: longID, sizeBytes: long.count, contentType: "audio/wav")
            #expect(try await api.upload(try #require(created.uploadURL), long, contentType: "audio/wav").status == .ok)
            try await api.send(
                .post, "/v1/entries/\(longID)/complete", token: session.accessToken,
                json: DeviceTranscriptTests.transcript(), expecting: .ok)

            // When both are transcribed
            let entry = try await api.finishedTranscription(session, spoken)
            _ = try await api.finishedTranscription(session, longID)

            // Then the server's words came from the audio it read from the bucket
            #expect(entry["status"] as? String == "transcribed")
            #expect(!(entry["transcript_clean"] as? String ?? "").isEmpty)

            // When the day is exported
            let exportID = try await api.requestExport(session, from: "2026-05-01", to: "2026-05-01", tz: "Europe/Paris")
            var export: [String: Any] = [:]
            try await pollUntil("the export is ready") {
                export = try await api.send(.get, "/v1/exports/\(exportID)", token: session.accessToken).json
                return ["ready", "failed"].contains(export["status"] as? String ?? "")
            }
            #expect(export["status"] as? String == "ready")

            // Then the archive is in the bucket (larger than one part), and the export's link sends the browser there
            let archiveKey = "exports/\(session.userID)/\(exportID)"
            #expect(try await bucket.head(archiveKey)?.size ?? 0 > 5 * 1024 * 1024)
            #expect(try await bucket.openMultipartUploads(prefix: "").isEmpty)
            let link = try #require(export["download_url"] as? String)
            let redirect = try await api.send(.get, link)
            #expect(redirect.status == .found)
            let target = try #require(redirect.headers[.location])
            #expect(target.hasPrefix(bucket.location.endpoint.absoluteString))
            let archive = try await api.send(.get, target)
            #expect(archive.status == .ok)
            #expect(archive.headers[.contentDisposition] == #"attachment; filename="myday-export-2026-05-01-2026-05-01.zip""#)
            let files = try await ExportTests.openZip(archive.body)
            #expect(files.values.contains { $0.sha256 == ExportTests.sha256(long) })
        }
    }

    @Test(arguments: TestDatabase.available)
    func closingTheAccountEmptiesTheBucketOfItsObjects(_ database: TestDatabase) async throws {
        let (server, bucket) = try await TestServer.withBucket(database) { $0.workers = 1 }
        try await server.run { api in
            // Given two people with audio, one of them with an upload not yet completed
            let leaving = try await api.register()
            let staying = try await api.register()
            for _ in 0..<3 { try await api.createUploadedEntry(leaving) }
            _ = try await api.createAndUpload(leaving, try await TestAudio.m4a())
            try await api.createUploadedEntry(staying)

            // When the first closes the account
            try await api.send(
                .delete, "/v1/me", token: leaving.accessToken, json: ["password": "correct horse battery"],
                expecting: .accepted)

            // Then nothing of theirs stays in the bucket, and the other's audio does
            try await pollUntil("the account's objects are removed") {
                try await bucket.allKeys().allSatisfy { !$0.contains(leaving.userID) }
            }
            #expect(try await bucket.allKeys().filter { $0.contains(staying.userID) }.count == 1)
        }
    }

    @Test func theWebAppMayReachTheBucket() async throws {
        // Given a server whose blobs are in a bucket
        let (server, bucket) = try await TestServer.withBucket(.sqlite)
        try await server.run { api in
            // When the web app is loaded
            let page = try await api.send(.get, "/")

            // Then its policy lets it upload to the bucket and play audio from it, and nothing else new
            let policy = try #require(page.headers[.contentSecurityPolicy])
            let origin = bucket.location.origin
            #expect(policy.contains("connect-src 'self' \(origin)"))
            #expect(policy.contains("media-src 'self' blob: \(origin)"))
        }
    }
}
