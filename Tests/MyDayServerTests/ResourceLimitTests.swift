import ChildProcesses
import Foundation
import MyDayTestSupport
import OpenAIStandIns
import Testing

@testable import MyDayServer

/// Attacks on the server's time, disk and workers, sent as an attacker would, and what the server does with them.
@Suite(.serialized) struct ResourceLimitTests {
    /// `seconds` of a tone in `container` ("m4a" or "webm"); the WebM streamed as a browser writes it, with no duration.
    private func recording(seconds: Int, _ container: String = "m4a") async throws -> Data {
        let source = ["-f", "lavfi", "-i", "sine=frequency=300:sample_rate=16000", "-t", String(seconds), "-ac", "1"]
        if container == "m4a" { return try await TestMedia.ffmpegOutput(source + ["-c:a", "aac", "-b:a", "16k"], ext: "m4a") }
        return try await TestMedia.streamedWebM(seconds: seconds)
    }

    @Test(arguments: ["m4a", "webm"])
    func aRecordingLongerThanTheLimitIsRefusedAtComplete(_ container: String) async throws {
        let server = try await TestServer.make(.sqlite) {
            $0.workers = 0
            $0.maxRecordingSeconds = 60
        }
        try await server.run { api in
            let session = try await api.register()
            // Given a 90 s recording on a server that keeps up to a minute, declared as 1.5 s long
            let audio = try await recording(seconds: 90, container)
            let id = UUID()
            let created = try await api.createAudioEntry(
                session, id: id, sizeBytes: audio.count, contentType: container == "m4a" ? "audio/mp4" : "audio/webm")
            let upload = try await api.upload(
                try #require(created.uploadURL), audio, contentType: container == "m4a" ? "audio/mp4" : "audio/webm")
            try #require(upload.status == .noContent, "\(upload.text)")

            // When it is completed
            let completed = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)

            // Then it is refused with the limit named, its bytes are gone and the entry still waits for an upload
            #expect(completed.status == .unprocessableContent)
            #expect(completed.text.contains("lasts 1 minute 3") && completed.text.contains("up to 1 minute."))
            #expect(server.storedBlobs().isEmpty)
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken)
            #expect(entry.json["status"] as? String == "pending_upload")
        }
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedBeforeAnyUpload() async throws {
        let server = try await TestServer.make(.sqlite) {
            $0.workers = 0
            $0.maxRecordingSeconds = 3600
        }
        try await server.run { api in
            let session = try await api.register()
            let body: [String: Any] = [
                "id": UUID().uuidString.lowercased(), "created_at": "2026-05-01T08:30:00Z", "tz": "UTC",
                "duration_s": 3601, "kind": "audio", "size_bytes": 1000, "content_type": "audio/mp4",
            ]
            let created = try await api.send(.post, "/v1/entries", token: session.accessToken, json: body)
            #expect(created.status == .unprocessableContent)
            #expect(created.text.contains("up to 1 hour"))
        }
    }

    @Test func aTranscriptionThatOutrunsItsTimeLimitFailsWithAReasonAndFreesTheSlot() async throws {
        // Given a speech engine that takes the recording and never answers, and a limit of half a second
        let standIn = OpenAIStandIn(.hang)
        try await standIn.serve { port in
            let server = try await TestServer.make(.sqlite) {
                $0.workers = 1
                $0.asrURL = "http://127.0.0.1:\(port)"
                $0.transcriptionTimeLimit = TranscriptionTimeLimit(base: .milliseconds(500), perAudioSecond: .zero)
            }
            try await server.run { api in
                let session = try await api.register()
                let id = try await api.createUploadedEntry(session)

                // Then the entry fails at once (no retries of a job that ran out of time), saying why
                let failed = try await api.finishedTranscription(session, id)
                #expect(failed["status"] as? String == "failed")
                #expect((failed["failure_reason"] as? String)?.contains("longer than its limit") == true)
            }
            standIn.release.continuation.finish()
        }
    }

    @Test func transcribeAgainIsLimitedPerUser() async throws {
        let server = try await TestServer.make(.sqlite) {
            $0.workers = 0
            $0.rateLimits.retranscriptionsPerUser = RateLimit(perMinute: 2)
        }
        try await server.run { api in
            let session = try await api.register()
            let id = try await api.createUploadedEntry(session)
            // When one user asks again and again
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(
                    try await api.send(.post, "/v1/entries/\(id)/retranscribe", token: session.accessToken).status.code)
            }
            // Then the third is refused until the minute has passed
            #expect(statuses == [202, 202, 429])
        }
    }

    @Test(arguments: TestDatabase.available)
    func anUploadStillStreamingWhenAnotherIsCompletedCannotReplaceIt(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        try await server.run { api in
            let session = try await api.register()
            let audio = try await TestAudio.m4a()
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: audio.count)
            let url = try #require(created.uploadURL)

            // Given a slow upload of other bytes of the same size, half sent
            let other = Data(repeating: 0x41, count: audio.count)
            let slow = try RawHTTP.open(port: api.port)
            defer { slow.close() }
            try slow.send(
                Data(
                    "PUT \(APIClient.relative(url)) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: audio/mp4\r\nContent-Length: \(other.count)\r\nConnection: close\r\n\r\n"
                        .utf8) + other.prefix(other.count / 2))
            try await pollUntil("the server writes the slow upload") { server.isWritingAnUpload() }

            // When a second attempt uploads the real recording and completes it
            try #require(try await api.upload(url, audio).status == .noContent)
            let completed = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            try #require(completed.json["status"] as? String == "uploaded", "\(completed.text)")

            // And then the slow upload ends
            try slow.send(other.suffix(from: other.count / 2))
            let answer = try await onDedicatedThread { slow.readAll() }

            // Then it is refused, and the stored audio is the recording that was checked
            #expect(answer.hasPrefix("HTTP/1.1 409"))
            let link = try await api.send(.get, "/v1/entries/\(id)/audio", token: session.accessToken)
            let stored = try await api.send(.get, try #require(link.json["url"] as? String))
            #expect(stored.body == audio)
            #expect(server.storedBlobs() == ["audio/\(session.userID)/\(id.uuidString.lowercased())"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func completesOfOneEntryAtOnceCheckItOnceAndAgree(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        try await server.run { api in
            let session = try await api.register()
            let id = try await api.createAndUpload(session, try await TestAudio.m4a())

            // When five completes of the same entry arrive together: all five under way in the server before any is
            // answered, and on PostgreSQL all five waiting together to write the entry
            let complete = HeldRequests.Request.withBody(
                head: "POST /v1/entries/\(id)/complete HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer \(session.accessToken)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\nConnection: close\r\n\r\n",
                body: Data("{}".utf8))
            let port = api.port
            let answers = try await server.withDatabase { driver in
                let holder = TableHolder(driver: driver, table: "entries", mode: .share)
                try await holder.hold()
                let completing = Task { try await HeldRequests.exchange(port: port, Array(repeating: complete, count: 5)) }
                try await holder.release(onceWaiting: 5)
                return try await completing.value
            }

            // Then every one answers the uploaded entry, and one transcription is queued
            #expect(
                answers.allSatisfy { $0.status == 200 && $0.json["status"] as? String == "uploaded" },
                "\(answers.map { "\($0.status) \($0.body)" })")
            let jobs = try await server.withDatabase { driver in
                try await driver.read { db in
                    try await db.raw("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'transcribe'").first()?
                        .decode(column: "n", as: Int.self)
                }
            }
            #expect(jobs == 1)
        }
    }
}

@Suite(.serialized) struct UnauthenticatedBodyTests {
    /// Resident memory of process `pid` now (`VmRSS`) or at its peak (`VmHWM`), in bytes.
    private func residentBytes(_ pid: Int32, _ field: String = "VmRSS") throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(whereSeparator: \.isWhitespace)[1])) * 1024
    }

    @Test func fiftyUnauthenticatedEightMegabyteBodiesAreNotBuffered() async throws {
        let data = TestFolder.path("myday-bodies")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess(dataDirectory: data, environment: ["MYDAY_WORKERS": "0"])
        defer { server.kill() }
        let idle = try residentBytes(server.child.processIdentifier)

        // When fifty clients without a token send 8 MB each to `complete`, the one path with the large limit
        let body = Data(repeating: 0x20, count: 8 * 1024 * 1024)
        let port = server.port
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await onDedicatedThread {
                        let head =
                            "POST /v1/entries/\(UUID().uuidString.lowercased())/complete HTTP/1.1\r\nHost: x\r\n"
                            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                        return try RawHTTP.statusWhileSending(port: port, Data(head.utf8) + body)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then each is refused as unauthenticated, and the server's memory never rose 100 MB above idle
        #expect(statuses.allSatisfy { $0 == 401 }, "\(statuses)")
        let grown = try residentBytes(server.child.processIdentifier, "VmHWM") - idle
        #expect(grown < 100 * 1024 * 1024, "RSS grew by \(grown / 1_048_576) MB")
    }
}

extension RawHTTP {
    /// Sends `request` on one thread while reading the answer on this one, as a client does that keeps sending a
    /// large body the server has already refused; answers the status. Blocks: call it through `onDedicatedThread`.
    static func statusWhileSending(port: Int, _ request: Data) throws -> Int {
        let connection = try open(port: port)
        defer { connection.close() }
        let sent = DispatchSemaphore(value: 0)
        Thread {
            try? connection.send(request)
            sent.signal()
        }.start()
        let answer = connection.readAll()
        shutdown(connection.socket, Int32(SHUT_RDWR))
        sent.wait()
        return answer.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }
}
