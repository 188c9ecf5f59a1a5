import Configuration
import Foundation
import HTTPTypes
import MyDaySpeech
import MyDayTestSupport
import NIOCore
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
            #expect(
                url.hasPrefix(
                    "\(bucket.location.endpoint.absoluteString)/\(bucket.location.bucket)/\(bucket.location.keyPrefix)incoming/"))
            #expect(url.contains("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost"))
            #expect(url.contains("X-Amz-Expires=900&"))
            #expect(
                (created.reply.json["upload"] as? [String: Any])?["headers"] as? [String: String] == ["Content-Type": "audio/mp4"]
            )

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

    @Test func ffprobeReadsAnUploadWhereItLiesInTheBucket() async throws {
        // Given audio whose index is at its end, the same cut off, and bytes that are no audio, in the bucket
        let loopback = try await LoopbackBucket.shared()
        let client = S3Client(
            location: S3Location(
                bucket: loopback.bucket, endpoint: loopback.endpoint, region: "us-east-1", keyPrefix: LoopbackBucket.freshPrefix()
            ),
            credentials: S3Credentials(accessKeyID: loopback.accessKeyID, secretAccessKey: loopback.secretAccessKey))
        let files = ["whole": try await TestAudio.m4a(), "cut": try await TestAudio.truncatedM4A(), "noise": TestAudio.notAudio]
        for (key, data) in files {
            try await client.put(key, body: .bytes(ByteBuffer(data: data)), length: data.count, contentType: "audio/mp4")
        }
        // And a store with nowhere to download to: its scratch folder is a file
        let scratch = TestFolder.path("myday-scratch")
        let store = try S3BlobStore(client: client, scratch: scratch)
        try FileManager.default.removeItem(at: scratch)
        #expect(FileManager.default.createFile(atPath: scratch.path, contents: Data("not a folder".utf8)))
        defer { try? FileManager.default.removeItem(at: scratch) }

        // When ffprobe checks each through the URL the store gives
        func verdict(_ key: String) async throws -> AudioProbe.Verdict {
            try await store.withReadableURL(key: key) { try await AudioProbe().probe($0, expected: .mp4) }
        }

        // Then the audio is found with its length, the cut and the noise are refused, and nothing was downloaded
        let whole = try await verdict("whole")
        guard case .audio(let finding) = whole else {
            Issue.record("the audio was refused: \(whole)")
            return
        }
        #expect(abs((finding.durationSeconds ?? 0) - 1.5) < 0.1)
        for damaged in ["cut", "noise"] {
            if case .audio = try await verdict(damaged) { Issue.record("\(damaged) passed as audio") }
        }
        await #expect(throws: (any Error).self) { try await store.withLocalFile(key: "whole") { _ in () } }
        await #expect(throws: BlobStoreError.notFound) { try await verdict("missing") }
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

    @Test func housekeepingRemovesLateUploadsAndAbandonedMultipartUploads() async throws {
        let (server, bucket) = try await TestServer.withBucket(.sqlite)
        try await server.run { api in
            // Given a completed entry whose upload URL is used again, and another entry still waiting for its upload
            let session = try await api.register()
            let audio = try await TestAudio.m4a()
            let done = UUID()
            let created = try await api.createAudioEntry(session, id: done, sizeBytes: audio.count)
            let url = try #require(created.uploadURL)
            #expect(try await api.upload(url, audio).status == .ok)
            try await api.send(.post, "/v1/entries/\(done)/complete", token: session.accessToken, expecting: .ok)
            #expect(try await api.upload(url, audio).status == .ok)
            let waiting = try await api.createAndUpload(session, audio)
            // And an archive's multipart upload nobody finished
            let abandoned = try await bucket.startMultipartUpload("exports/\(session.userID)/\(UUID().uuidString.lowercased())")

            // When housekeeping runs
            let swept = try await server.withHousekeeping { try await $0.sweepStrayUploads() }
            // (moto says every multipart upload began in 2010, so only the cut-off's side of now can be checked here)
            let old = try await server.withHousekeeping {
                try await $0.blobs.removeAbandonedWrites(startedBefore: Date().addingTimeInterval(60))
            }

            // Then the late upload is gone, the waiting one and the audio stay, and the abandoned upload was aborted
            let user = session.userID
            #expect(swept == 1)
            #expect(
                try await bucket.allKeys() == [
                    "audio/\(user)/\(done.uuidString.lowercased())", "incoming/\(user)/\(waiting.uuidString.lowercased())",
                ])
            #expect(old == 1)
            #expect(S3BlobStore.time("2026-11-25T10:00:00.000Z") == Date(timeIntervalSince1970: 1_795_600_800))
            #expect(S3BlobStore.time("2026-11-25T10:00:00Z") == Date(timeIntervalSince1970: 1_795_600_800))
            #expect(try await bucket.openMultipartUploads(prefix: "").map(\.uploadID).contains(abandoned) == false)
        }
    }

    @Test func anUnreachableBucketAnswers503AndChangesNothing() async throws {
        // Given a server whose bucket does not answer (a closed port)
        let server = try await TestServer.make(.sqlite) {
            $0.objectStorage = ObjectStorageSettings(
                location: S3Location(bucket: "gone", endpoint: URL(string: "http://127.0.0.1:9")!, region: "us-east-1"),
                credentials: S3Credentials(accessKeyID: "id", secretAccessKey: "secret"))
        }
        try await server.run { api in
            let session = try await api.register()
            let id = UUID()
            _ = try await api.createAudioEntry(session, id: id, sizeBytes: 1000)

            // When the upload is completed
            let completed = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)

            // Then the answer says to try again, names no secret, and the entry still waits for its upload
            #expect(completed.status == .serviceUnavailable && completed.errorCode == "storage_unavailable")
            #expect(completed.headers[.retryAfter] == "5")
            #expect(!completed.text.contains("secret"))
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken, expecting: .ok)
            #expect(entry.json["status"] as? String == "pending_upload")
        }
    }

    @Test func onlyFailuresThatMayPassAreWorthRetrying() {
        // A bucket that does not answer or fails: try again; one that refuses the server's keys: the operator's to fix
        typealias Errors = ErrorMiddleware<MyDayRequestContext>
        #expect(Errors.apiError(for: S3Error(status: 0, code: "Unreachable", message: nil)) == .storageUnavailable)
        #expect(Errors.apiError(for: S3Error(status: 503, code: "SlowDown", message: nil)) == .storageUnavailable)
        #expect(Errors.apiError(for: S3Error(status: 403, code: "AccessDenied", message: nil)) == .serverFault)
    }

    @Test func aCompletionClaimIsRenewedWhileHeldAndLetGoWhenTakenOver() async throws {
        // Given an entry waiting for its upload, claimed for a lease of 300 ms
        try await withClaimedEntry(lease: 300) { driver, entries, id, userID, now in
            let lease = CompletionLease(until: now + 300)
            // (renewed every 100 ms, around a check that would never end by itself)
            let renewing = Task {
                await runRenewingLease(
                    every: .milliseconds(100), renew: { await lease.renew(id: id, in: entries, lease: 300) },
                    { try await Task.sleep(for: .seconds(3600)) })
            }

            // When it has been renewed, then it lasts beyond its first end and nobody else may claim it
            try await pollUntil("the claim is renewed") { lease.until > now + 300 }
            #expect(!(try await entries.claimCompletion(id: id, userID: userID, until: now + 10_000, now: now + 301)))

            // When another request's claim replaces it (as after a lease that ran out), then renewing stops
            try await driver.write { db in
                try await db.raw("UPDATE entries SET completing_until = 1 WHERE id = \(bind: id.lowercased)").run()
            }
            guard case .lost = await renewing.value else {
                Issue.record("the check went on under a claim it had lost")
                return
            }
            // And giving it back leaves the other claim alone
            try await entries.releaseCompletion(id: id, held: lease.until)
            let kept = try await driver.read { db in
                try await db.raw("SELECT completing_until FROM entries WHERE id = \(bind: id.lowercased)").first()?
                    .decode(column: "completing_until", as: Int?.self)
            }
            #expect(kept == 1)
        }
    }

    @Test func aClaimIsStillHeldWhenItsOwnCheckHasMarkedTheEntryUploaded() async throws {
        // Given an entry waiting for its upload, claimed by a request
        try await withClaimedEntry(lease: 15_000) { driver, entries, id, userID, now in
            // When that request's check marks the entry uploaded, and a renewal comes before it has answered
            let marked = try await driver.write { db in
                try await EntryStore.markUploaded(
                    id: id, userID: userID, durationSeconds: 1, fromStatuses: [.pendingUpload], in: db)
            }
            #expect(marked?.changed == true)
            let lease = CompletionLease(until: now + 15_000)
            // Then the claim is still this request's: its answer is the upload's, not "taken over"
            guard case .keep = await lease.renew(id: id, in: entries, lease: 15_000) else {
                Issue.record("a completed check read as one taken over")
                return
            }
        }
    }

    /// Runs `body` on the database of a server where a new person's entry waits for its upload, claimed at `now` for
    /// `lease` ms.
    private func withClaimedEntry(
        lease: Int,
        _ body: @escaping @Sendable (any DatabaseDriver, EntryStore, _ id: UUID, _ userID: UUID, _ now: Int) async throws -> Void
    ) async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            let session = try await api.register()
            let id = UUID()
            _ = try await api.createAudioEntry(session, id: id, sizeBytes: 1000)
            let userID = try #require(UUID(uuidString: session.userID))
            try await server.withDatabase { driver in
                let entries = EntryStore(driver: driver)
                let now = StoredTime.now()
                #expect(try await entries.claimCompletion(id: id, userID: userID, until: now + lease, now: now))
                try await body(driver, entries, id, userID, now)
            }
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

/// `MYDAY_S3_*` and the standard `AWS_*` variables: all that is needed, or a sentence naming what is wrong.
@Suite struct ObjectStorageSettingsTests {
    static func configuration(_ environment: [String: String]) throws -> ServerConfiguration {
        try ServerConfiguration(reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
    }

    @Test func aBucketWithItsKeysOrTheDataDirectory() throws {
        // Without a bucket, blobs stay on disk
        #expect(try Self.configuration([:]).objectStorage == nil)

        // A bucket on a server of one's own: path-style, the prefix ending in a slash
        let own = try #require(
            try Self.configuration([
                "MYDAY_S3_BUCKET": "diaries", "MYDAY_S3_ENDPOINT": "http://127.0.0.1:9000", "MYDAY_S3_ACCESS_KEY_ID": "id",
                "MYDAY_S3_SECRET_ACCESS_KEY": "secret", "MYDAY_S3_PREFIX": "myday",
            ]).objectStorage)
        #expect(own.location.addressing == .path && own.location.keyPrefix == "myday/" && own.location.region == "us-east-1")
        #expect(own.location.origin == "http://127.0.0.1:9000")
        #expect(!"\(own)".contains("secret"))

        // AWS: no endpoint, virtual-hosted, the keys and region from the standard variables
        let aws = try #require(
            try Self.configuration([
                "MYDAY_S3_BUCKET": "diaries", "AWS_REGION": "eu-west-3", "AWS_ACCESS_KEY_ID": "AKIA1",
                "AWS_SECRET_ACCESS_KEY": "s", "AWS_SESSION_TOKEN": "t",
            ]).objectStorage)
        #expect(aws.location.origin == "https://diaries.s3.eu-west-3.amazonaws.com")
        #expect(aws.credentials == S3Credentials(accessKeyID: "AKIA1", secretAccessKey: "s", sessionToken: "t"))

        // Another service named as AWS's tools name it: its endpoint and default region from the standard variables
        let named = try #require(
            try Self.configuration([
                "MYDAY_S3_BUCKET": "diaries", "AWS_ENDPOINT_URL_S3": "https://account.r2.cloudflarestorage.com",
                "AWS_ENDPOINT_URL": "https://elsewhere.example.com", "AWS_DEFAULT_REGION": "auto",
                "AWS_ACCESS_KEY_ID": "i", "AWS_SECRET_ACCESS_KEY": "s",
            ]).objectStorage)
        #expect(named.location.endpoint.absoluteString == "https://account.r2.cloudflarestorage.com")
        #expect(named.location.region == "auto")
    }

    @Test(arguments: [
        ["MYDAY_S3_ENDPOINT": "http://127.0.0.1:9000"],
        ["MYDAY_S3_SESSION_TOKEN": "t"],
        ["MYDAY_S3_BUCKET": "diaries"],
        ["MYDAY_S3_BUCKET": "Diaries!", "MYDAY_S3_ACCESS_KEY_ID": "i", "MYDAY_S3_SECRET_ACCESS_KEY": "s"],
        [
            "MYDAY_S3_BUCKET": "diaries", "MYDAY_S3_ENDPOINT": "s3.example.com", "MYDAY_S3_ACCESS_KEY_ID": "i",
            "MYDAY_S3_SECRET_ACCESS_KEY": "s",
        ],
        [
            "MYDAY_S3_BUCKET": "diaries", "MYDAY_S3_ADDRESSING": "sideways", "MYDAY_S3_ACCESS_KEY_ID": "i",
            "MYDAY_S3_SECRET_ACCESS_KEY": "s",
        ],
        [
            "MYDAY_S3_BUCKET": "diaries", "MYDAY_S3_PREFIX": "/abs", "MYDAY_S3_ACCESS_KEY_ID": "i",
            "MYDAY_S3_SECRET_ACCESS_KEY": "s",
        ],
        [
            "MYDAY_S3_BUCKET": "my.diaries", "MYDAY_S3_ADDRESSING": "virtual", "MYDAY_S3_ACCESS_KEY_ID": "i",
            "MYDAY_S3_SECRET_ACCESS_KEY": "s",
        ],
    ])
    func incompleteOrWrongSettingsAreNamed(_ environment: [String: String]) {
        #expect(throws: ConfigurationError.self) { try Self.configuration(environment) }
    }
}
