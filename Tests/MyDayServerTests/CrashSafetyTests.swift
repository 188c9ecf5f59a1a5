import Foundation
import Testing

@Suite(.serialized) struct CrashSafetyTests {
    @Test(arguments: TestDatabase.available)
    func anUploadCutOffMidBodyLeavesNoBlobAndCanBeRetried(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let id = UUID()
            let audio = TestAudio.m4a
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count)
            let path = APIClient.relative(try #require(created.uploadURL))

            // Given a client that announces the whole file but hangs up after half of it
            try RawHTTP.sendAndHangUp(
                port: api.port,
                head:
                    "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: audio/mp4\r\nContent-Length: \(audio.count)\r\n\r\n",
                body: audio.prefix(audio.count / 2))

            // Then, once the server has let go of the connection, nothing was stored and the entry still waits
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, server.temporaryUploads() > 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.temporaryUploads() == 0)
            #expect(server.storedBlobs().isEmpty)
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken)
            #expect(entry.json["status"] as? String == "pending_upload")

            // And a retry succeeds
            #expect(try await api.upload(path, audio).status == .noContent)
            let complete = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            #expect(complete.json["status"] as? String == "uploaded")
        }
    }
}
