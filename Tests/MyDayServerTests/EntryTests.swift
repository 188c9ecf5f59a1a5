import Foundation
import HTTPTypes
import MyDayTestSupport
import Testing

@testable import MyDayServer

@Suite(.serialized) struct EntryTests {
    @Test(arguments: TestDatabase.available)
    func audioEntryFromCreateToPlayback(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let id = UUID()
            let audio = try await TestAudio.m4a()

            // Given a new audio entry recorded at 10:30 in Paris
            let created = try await api.createAudioEntry(
                session, id: id, sizeBytes: audio.count, createdAt: "2026-05-01T08:30:00.250Z")
            #expect(created.reply.status == .created)
            #expect(created.entry["status"] as? String == "pending_upload")
            #expect(created.entry["filename"] as? String == "2026-05-01_10-30-00_\(id.uuidString.lowercased().prefix(8)).m4a")
            let uploadURL = try #require(created.uploadURL)
            #expect(uploadURL.hasPrefix("http://"))

            // When its audio is uploaded and the upload completed
            #expect(try await api.upload(uploadURL, audio).status == .noContent)
            let complete = try await api.send(.post, "/v1/entries/\(id.uuidString)/complete", token: session.accessToken)

            // Then it is uploaded, the blob holds the exact bytes, and a signed link plays it with seeking
            #expect(complete.status == .ok)
            #expect(complete.json["status"] as? String == "uploaded")
            #expect(server.storedBlobs() == ["audio/\(session.userID)/\(id.uuidString.lowercased())"])
            let link = try await api.send(.get, "/v1/entries/\(id.uuidString)/audio", token: session.accessToken)
            let audioURL = try #require(link.json["url"] as? String)
            let whole = try await api.send(.get, audioURL)
            #expect(whole.status == .ok && whole.body == audio)
            #expect(whole.headers[.contentType] == "audio/mp4" && whole.headers[.acceptRanges] == "bytes")
            // No shared cache (a proxy, a CDN) keeps a copy of someone's voice
            #expect(whole.headers[.cacheControl] == "private, no-store")
            let part = try await api.send(.get, audioURL, headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect(part.body == audio.subdata(in: 100..<200))
            #expect(part.headers[.contentRange] == "bytes 100-199/\(audio.count)")
            let tail = try await api.send(.get, audioURL, headers: [.range: "bytes=-10"])
            #expect(tail.body == audio.suffix(10))
            #expect(try await api.send(.get, audioURL, headers: [.range: "bytes=\(audio.count)-"]).status == .rangeNotSatisfiable)

            // And completing again changes nothing; a second upload cannot replace the stored audio
            #expect(
                try await api.send(.post, "/v1/entries/\(id.uuidString)/complete", token: session.accessToken).json["status"]
                    as? String == "uploaded")
            #expect(try await api.upload(uploadURL, try await TestAudio.wav(), contentType: "audio/wav").status == .conflict)
        }
    }

    @Test(arguments: TestDatabase.available)
    func creatingIsIdempotent(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let session = try await api.register()
            let id = UUID()
            let first = try await api.createAudioEntry(session, id: id, sizeBytes: (try await TestAudio.m4a()).count)
            let again = try await api.createAudioEntry(session, id: id, sizeBytes: (try await TestAudio.m4a()).count)
            #expect(first.reply.status == .created && again.reply.status == .ok)
            #expect(first.entry["id"] as? String == again.entry["id"] as? String)
            #expect(first.entry["filename"] as? String == again.entry["filename"] as? String)
            #expect(again.uploadURL != nil)

            // Once uploaded, a repeat answers the entry with no upload to do
            #expect(try await api.upload(again.uploadURL!, try await TestAudio.m4a()).status == .noContent)
            try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken, expecting: .ok)
            let afterUpload = try await api.createAudioEntry(session, id: id, sizeBytes: (try await TestAudio.m4a()).count)
            #expect(afterUpload.reply.status == .ok && afterUpload.uploadURL == nil)

            // The same id from another user is a conflict, and reveals nothing
            let other = try await api.register()
            let stolen = try await api.createAudioEntry(other, id: id, sizeBytes: 10)
            #expect(stolen.reply.status == .conflict && stolen.reply.json["entry"] == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func textEntriesAreTranscribedAtOnce(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let session = try await api.register()
            let id = UUID().uuidString.lowercased()
            let reply = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: [
                    "id": id, "created_at": "2026-03-08T06:59:59Z", "tz": "America/New_York", "kind": "text",
                    "text": "A quiet day.",
                ])
            #expect(reply.status == .created)
            let entry = try #require(reply.json["entry"] as? [String: Any])
            #expect(entry["status"] as? String == "transcribed")
            #expect(entry["transcript_clean"] as? String == "A quiet day.")
            #expect(entry["filename"] as? String == "2026-03-08_01-59-59_\(id.prefix(8)).txt")
            #expect(reply.json["upload"] == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func badEntryInputIsRejectedAndChangesNothing(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let valid: [String: Any] = [
                "id": UUID().uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "Europe/Paris", "kind": "audio",
                "size_bytes": 1000,
            ]
            func with(_ changes: [String: Any?]) -> [String: Any] {
                var body = valid
                for (key, value) in changes { body[key] = value }
                return body
            }
            let cases: [([String: Any], Int)] = [
                (with(["tz": "Mars/Olympus"]), 422),
                (with(["created_at": "1970-01-01T00:00:00Z"]), 422),
                (with(["created_at": "2999-01-01T00:00:00Z"]), 422),
                (with(["created_at": "yesterday"]), 400),
                (with(["id": "not-a-uuid"]), 400),
                (with(["kind": "video"]), 400),
                (with(["size_bytes": nil]), 422),
                (with(["size_bytes": 0]), 422),
                (with(["size_bytes": 10_000_000_000]), 413),
                (with(["duration_s": -1]), 422),
                (with(["language": "not a language"]), 422),
                (with(["text": "text on audio"]), 422),
                (with(["color": "blue"]), 400),
                (with(["kind": "text", "size_bytes": nil]), 422),
                (with(["size_bytes": "big"]), 400),
            ]
            for (body, status) in cases {
                let reply = try await api.send(.post, "/v1/entries", token: session.accessToken, json: body)
                #expect(reply.status.code == status, "\(body) → \(reply.status) \(reply.text)")
                #expect(reply.errorCode != nil)
            }
            let huge = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: with(["kind": "text", "size_bytes": nil, "text": String(repeating: "a", count: 2_000_000)]))
            #expect(huge.status == .contentTooLarge && huge.errorCode == "too_large")
            let plain = try await api.send(
                .post, "/v1/entries", token: session.accessToken, rawBody: Data("hello".utf8),
                headers: [.contentType: "text/plain"])
            #expect(plain.status == .unsupportedMediaType && plain.errorCode == "unsupported_media_type")
        }
        let entries = try await server.withDatabase { db in
            try await db.read { try await $0.raw("SELECT COUNT(*) AS n FROM entries").first()!.decode(column: "n", as: Int.self) }
        }
        #expect(entries == 0)
    }

    @Test(arguments: TestDatabase.available)
    func badUploadsAreRejectedAndTheEntryCanBeRetried(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            for bad in [TestAudio.notAudio, try await TestAudio.truncatedM4A()] {
                let id = UUID()
                let created = try await api.createAudioEntry(session, id: id, sizeBytes: bad.count)
                let url = try #require(created.uploadURL)
                #expect(try await api.upload(url, bad).status == .noContent)

                // When the upload is completed, then it is refused and the entry still waits for its audio
                let complete = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
                #expect(complete.status == .unprocessableContent && complete.errorCode == "invalid_value")
                let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken)
                #expect(entry.json["status"] as? String == "pending_upload")
                #expect(server.storedBlobs().isEmpty)
            }

            // A declared size that does not match the upload is refused too, and a correct retry succeeds
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: (try await TestAudio.m4a()).count)
            #expect(try await api.upload(created.uploadURL!, try await TestAudio.m4a().prefix(1000)).status == .noContent)
            #expect(
                try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken).status
                    == .unprocessableContent)
            let fresh = try await api.createAudioEntry(session, id: id, sizeBytes: (try await TestAudio.m4a()).count)
            #expect(try await api.upload(fresh.uploadURL!, try await TestAudio.m4a()).status == .noContent)
            let retried = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            #expect(retried.json["status"] as? String == "uploaded")

            // Completing before any upload says what to do
            let early = try await api.createAudioEntry(session, sizeBytes: 100)
            let earlyID = try #require(early.entry["id"] as? String)
            let notYet = try await api.send(.post, "/v1/entries/\(earlyID)/complete", token: session.accessToken)
            #expect(notYet.status == .unprocessableContent)
        }
    }

    @Test(arguments: TestDatabase.available)
    func theUploadMustBeTheDeclaredContainer(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let session = try await api.register()
            // Given an entry declared as WAV
            let id = UUID()
            let created = try await api.createAudioEntry(
                session, id: id, sizeBytes: (try await TestAudio.wav()).count, contentType: "audio/wav")
            #expect((created.entry["filename"] as? String)?.hasSuffix(".wav") == true)
            let url = try #require(created.uploadURL)

            // When MP4 is sent with its own type, it is refused at once; sent as bytes, it is refused at completion
            #expect(
                try await api.upload(url, try await TestAudio.m4a(), contentType: "audio/mp4").status == .unsupportedMediaType)
            let sizeOfWav = try await api.createAudioEntry(
                session, sizeBytes: (try await TestAudio.m4a()).count, contentType: "audio/wav")
            let otherID = try #require(sizeOfWav.entry["id"] as? String)
            #expect(
                try await api.upload(sizeOfWav.uploadURL!, try await TestAudio.m4a(), contentType: "application/octet-stream")
                    .status
                    == .noContent)
            let mismatch = try await api.send(.post, "/v1/entries/\(otherID)/complete", token: session.accessToken)
            #expect(mismatch.status == .unprocessableContent)

            // Then real WAV is accepted
            #expect(try await api.upload(url, try await TestAudio.wav(), contentType: "audio/wav").status == .noContent)
            let complete = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            #expect(complete.json["status"] as? String == "uploaded")
        }
    }

    @Test(arguments: TestDatabase.available)
    func signedURLsRefuseTamperingExpiryAndWrongMethods(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: (try await TestAudio.m4a()).count)
            let url = try #require(created.uploadURL)
            let key = "audio/\(session.userID)/\(id.uuidString.lowercased())"
            let signer = URLSigner(secret: Array(server.configuration.secret!.utf8))

            let tamperedSignature = url.replacingOccurrences(of: "signature=", with: "signature=A")
            let otherKey = url.replacingOccurrences(of: id.uuidString.lowercased(), with: UUID().uuidString.lowercased())
            let expired = "/v1/blobs/\(key)?" + signer.query(method: "PUT", blobKey: key, expires: Date().addingTimeInterval(-5))
            let longer = url.replacingOccurrences(of: #"expires=\d+"#, with: "expires=9999999999", options: .regularExpression)
            let getSignature =
                "/v1/blobs/\(key)?" + signer.query(method: "GET", blobKey: key, expires: Date().addingTimeInterval(600))
            for bad in [tamperedSignature, otherKey, expired, longer, getSignature, "/v1/blobs/\(key)"] {
                let reply = try await api.upload(bad, try await TestAudio.m4a())
                #expect(reply.status == .forbidden, "\(bad) → \(reply.status)")
                #expect(reply.errorCode == "forbidden")
            }
            #expect(server.storedBlobs().isEmpty)
            #expect(
                try await api.upload(url, try await TestAudio.m4a(), contentType: "text/plain").status == .unsupportedMediaType)
        }
    }

    @Test(arguments: TestDatabase.available)
    func oversizeUploadsAre413(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.maxUploadBytes = 64 * 1024 }
        try await server.run { api in
            let session = try await api.register()
            let big = Data(repeating: 7, count: 200 * 1024)
            #expect(try await api.createAudioEntry(session, sizeBytes: big.count).reply.status == .contentTooLarge)

            // A client that declares a small size but sends more is stopped mid-stream
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: 1000)
            let reply = try await api.upload(created.uploadURL!, big)
            #expect(reply.status == .contentTooLarge && reply.errorCode == "too_large")
            #expect(server.storedBlobs().isEmpty)
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken)
            #expect(entry.json["status"] as? String == "pending_upload")
        }
    }

    @Test(arguments: TestDatabase.available)
    func editsAndDeletion(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let id = UUID()
            try await api.createUploadedEntry(session, id: id)

            let edited = try await api.send(
                .patch, "/v1/entries/\(id)", token: session.accessToken,
                json: ["title": "Morning walk", "tags": ["walk", " park ", "walk"], "mood": 4])
            #expect(edited.status == .ok)
            #expect(edited.json["title"] as? String == "Morning walk")
            #expect(edited.json["tags"] as? [String] == ["walk", "park"])
            #expect(edited.json["mood"] as? Int == 4)
            let cleared = try await api.send(
                .patch, "/v1/entries/\(id)", token: session.accessToken, json: ["mood": 0, "title": ""])
            #expect(
                cleared.json["mood"] == nil && cleared.json["title"] == nil
                    && cleared.json["tags"] as? [String] == ["walk", "park"])
            let refusals: [([String: Any], HTTPResponse.Status)] = [
                (["mood": 6], .unprocessableContent),
                (["tags": Array(repeating: "x", count: 21).enumerated().map { "\($0.offset)" }], .unprocessableContent),
                // more than 20 as sent, even when repeats would leave 20
                (["tags": (0..<20).map { "t\($0)" } + ["t0"]], .unprocessableContent),
                ([:], .unprocessableContent),
                // the words of a recording not transcribed yet cannot be edited
                (["text": "too early"], .conflict),
            ]
            for (bad, status) in refusals {
                let reply = try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: bad)
                #expect(reply.status == status && reply.errorMessage?.isEmpty == false, "\(bad) → \(reply.status) \(reply.text)")
            }

            // Deleted, it waits in Recently deleted with its audio; deleted for good, the audio goes
            #expect(try await api.send(.delete, "/v1/entries/\(id)", token: session.accessToken).status == .noContent)
            #expect(server.storedBlobs().count == 1)
            #expect(try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).status == .notFound)
            #expect(try await api.send(.delete, "/v1/entries/\(id)", token: session.accessToken).status == .notFound)
            #expect(try await api.send(.delete, "/v1/recently-deleted/\(id)", token: session.accessToken).status == .noContent)
            #expect(server.storedBlobs().isEmpty)
            let recreate = try await api.createAudioEntry(session, id: id, sizeBytes: 10)
            #expect(recreate.reply.status == .conflict)
        }
    }

    @Test(arguments: TestDatabase.available)
    func anotherUsersEntryIsNotFoundForEveryRoute(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            // Given Alice's uploaded entry
            let alice = try await api.register()
            let id = UUID()
            try await api.createUploadedEntry(alice, id: id)
            let before = try await api.send(.get, "/v1/entries/\(id)", token: alice.accessToken)

            // When Bob uses its id on every route, then each answers 404 with no data
            let bob = try await api.register()
            let attempts: [(HTTPRequest.Method, String, [String: Any]?)] = [
                (.get, "/v1/entries/\(id)", nil), (.patch, "/v1/entries/\(id)", ["title": "mine now"]),
                (.delete, "/v1/entries/\(id)", nil), (.get, "/v1/entries/\(id)/audio", nil),
                (.post, "/v1/entries/\(id)/complete", nil), (.post, "/v1/entries/\(id)/retranscribe", nil),
            ]
            for (method, path, json) in attempts {
                let reply = try await api.send(method, path, token: bob.accessToken, json: json)
                #expect(reply.status == .notFound, "\(method) \(path) → \(reply.status)")
                #expect(reply.errorCode == "not_found")
                #expect(!reply.text.contains(id.uuidString.lowercased()))
            }
            let bobsList = try await api.send(.get, "/v1/entries", token: bob.accessToken)
            #expect((bobsList.json["entries"] as? [Any])?.isEmpty == true)
            let bobsSearch = try await api.send(.get, "/v1/search?q=walk", token: bob.accessToken)
            #expect((bobsSearch.json["hits"] as? [Any])?.isEmpty == true)

            // And Alice's entry and audio are as they were
            let after = try await api.send(.get, "/v1/entries/\(id)", token: alice.accessToken)
            #expect(after.body == before.body)
            #expect(server.storedBlobs().count == 1)
            #expect(try await api.send(.get, "/v1/entries/\(UUID())", token: alice.accessToken).status == .notFound)
            #expect(try await api.send(.get, "/v1/entries/not-a-uuid", token: alice.accessToken).status == .badRequest)
        }
    }
}
