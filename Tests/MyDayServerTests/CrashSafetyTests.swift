import Foundation
import MyDayTestSupport
import Testing

@Suite(.serialized) struct CrashSafetyTests {
    @Test(arguments: TestDatabase.available)
    func anUploadCutOffMidBodyLeavesNoBlobAndCanBeRetried(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let id = UUID()
            let audio = try await TestAudio.m4a()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count)
            let path = APIClient.relative(try #require(created.uploadURL))

            // Given a client that announces the whole file, sends half of it and, once the server is writing it, hangs up
            let connection = try RawHTTP.open(port: api.port)
            try connection.send(
                Data(
                    "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: audio/mp4\r\nContent-Length: \(audio.count)\r\n\r\n"
                        .utf8) + audio.prefix(audio.count / 2))
            try await pollUntil("the server writes the upload") { server.isWritingAnUpload() }
            connection.close()

            // Then, once the server has let go of the partial file, nothing was stored and the entry still waits
            try await pollUntil("the server drops the partial upload") { !server.isWritingAnUpload() }
            #expect(server.storedBlobs().isEmpty && server.temporaryFiles().isEmpty)
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken)
            #expect(entry.json["status"] as? String == "pending_upload")

            // And a retry succeeds
            #expect(try await api.upload(path, audio).status == .noContent)
            let complete = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            #expect(complete.json["status"] as? String == "uploaded")
        }
    }
}
