import Foundation
import MyDayTestSupport
import OpenAIStandIns
import Testing

@testable import MyDayServer

/// Upload to transcript over HTTP, with the real ffmpeg, PocketSphinx and the rules cleaner.
@Suite(.serialized) struct PipelineTests {
    private func upload(_ api: APIClient, _ session: APIClient.Session, _ audio: Data) async throws -> UUID {
        let id = try await api.createAndUpload(session, audio)
        let complete = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
        #expect(complete.json["status"] as? String == "uploaded")
        return id
    }

    @Test(arguments: TestDatabase.available)
    func anUploadedRecordingBecomesACleanTranscript(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 1 }
        try await server.run { api in
            let session = try await api.register()
            let spoken = TestSpeech.diarySentence
            let id = try await upload(api, session, try await TestSpeech.m4a(spoken, silenceAfter: 1))

            // Then, with no further request from the client, the entry is transcribed
            let entry = try await api.finishedTranscription(session, id)
            #expect(entry["status"] as? String == "transcribed", "\(entry)")
            let raw = try #require(entry["transcript_raw"] as? String)
            let heard = Set(raw.split(separator: " ").map(String.init))
            let said = Set(spoken.split(separator: " ").map(String.init))
            #expect(Double(heard.intersection(said).count) >= Double(said.count) * 0.5, "heard: \(raw)")
            let clean = try #require(entry["transcript_clean"] as? String)
            #expect(clean.first?.isUppercase == true && clean.last.map { ".!?".contains($0) } == true, "clean: \(clean)")
            let cleanWords = clean.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
            #expect(Set(cleanWords).isDisjoint(with: ["um", "uh", "er", "ah", "hmm"]), "clean: \(clean)")
            #expect(entry["no_speech"] as? Bool == false)

            // And a client's next delta sync sees the transcript
            let delta = try await api.send(.get, "/v1/entries?since=0", token: session.accessToken).json
            let synced = (delta["entries"] as? [[String: Any]])?.first { $0["id"] as? String == id.uuidString.lowercased() }
            #expect(synced?["status"] as? String == "transcribed")

            // And metrics count the job and time each stage, with no words in them
            let metrics = try await api.send(.get, "/metrics").text
            #expect(metrics.contains(#"myday_jobs_in_state_count{state="succeeded"} 1"#))
            #expect(metrics.contains(#"myday_transcription_stage_duration_seconds_count{stage="recognize"} 1"#))
            #expect(!metrics.contains("sister"))

            // When its owner asks for it again, the same audio gives the same transcript
            let again = try await api.send(.post, "/v1/entries/\(id)/retranscribe", token: session.accessToken)
            #expect(again.status == .accepted && again.json["status"] as? String == "uploaded")
            let redone = try await api.finishedTranscription(session, id)
            #expect(redone["transcript_raw"] as? String == raw && redone["transcript_clean"] as? String == clean)
            let jobs = try await server.withDatabase { db in
                try await db.read {
                    try await $0.raw("SELECT COUNT(*) AS n FROM jobs WHERE state = 'succeeded'").first()!.decode(
                        column: "n", as: Int.self)
                }
            }
            #expect(jobs == 2)
        }
    }

    @Test func aWhisperCompatibleServerCanDoTheRecognising() async throws {
        let standIn = OpenAIStandIn(.json(OpenAIStandIn.sampleTranscription))
        try await standIn.serve { port in
            let server = try await TestServer.make(.sqlite) {
                $0.workers = 1
                $0.asrURL = "http://127.0.0.1:\(port)"
                $0.asrModel = "whisper-test"
            }
            try await server.run { api in
                let session = try await api.register()
                let id = try await upload(api, session, try await TestSpeech.m4a("hello there"))
                let entry = try await api.finishedTranscription(session, id)
                #expect(entry["transcript_raw"] as? String == "Hello there.")
                #expect(entry["transcript_clean"] as? String == "Hello there.")
            }
        }
        #expect(standIn.received.withLock { $0.count } == 1)
        // (a server not known to be My Day's speech service is asked for one answer, not for events)
        let request = String(decoding: try #require(standIn.received.withLock { $0.first }).body, as: UTF8.self)
        #expect(!request.contains("name=\"stream\""))
    }

    @Test func aLongRecordingSaysHowMuchTheEngineHasHeardUntilItsWordsAreThere() async throws {
        // Given My Day's speech service on another machine, which tells how far it is, a quarter and then half way
        let standIn = OpenAIStandIn(.events(shares: [0.25, 0.5], transcription: OpenAIStandIn.sampleTranscription))
        try await standIn.serve { port in
            let server = try await TestServer.make(.sqlite) {
                $0.workers = 1
                $0.asrURL = "http://127.0.0.1:\(port)"
                $0.asrModel = "whisper-test"
                $0.asrStreamsProgress = true
            }
            try await server.run { api in
                let session = try await api.register()
                // When a recording of over a minute is transcribed
                let id = try await upload(api, session, try await TestSpeech.m4a("hello there", silenceAfter: 61))
                func percent() async throws -> Int? {
                    try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json["transcription_percent"]
                        as? Int
                }
                // Then the entry says how much has been heard (the first pass counts as 90% of the work)
                try await pollUntil("a quarter heard") { try await percent().map { (20...25).contains($0) } ?? false }
                standIn.release.continuation.yield()
                try await pollUntil("half heard") { try await percent().map { (40...50).contains($0) } ?? false }
                standIn.release.continuation.yield()
                // And once the words are stored, it no longer says
                let done = try await api.finishedTranscription(session, id)
                #expect(done["transcript_raw"] as? String == "Hello there.")
                #expect(done["transcription_percent"] == nil)
            }
        }
        let request = String(decoding: try #require(standIn.received.withLock { $0.first }).body, as: UTF8.self)
        #expect(request.contains("name=\"stream\"\r\n\r\ntrue"))
    }

    @Test func undecodableAudioFailsWithAReasonAndTheWorkerGoesOn() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 1 }
        try await server.run { api in
            let session = try await api.register()
            // Given audio that passed the upload checks but that ffmpeg cannot decode (as a damaged file
            // on a disk could be): random bytes, marked uploaded behind the API's back
            let garbage = Data((0..<8000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
            let id = UUID()
            let created = try await api.createAudioEntry(session, id: id, sizeBytes: garbage.count)
            let uploaded = try await api.upload(try #require(created.uploadURL), garbage)
            try #require(uploaded.status == .noContent, "\(uploaded.text)")
            let audioKey = BlobKey.audio(userID: try #require(UUID(uuidString: session.userID)), entryID: id)
            _ = try await DiskBlobStore(root: server.configuration.blobDirectory).move(
                from: BlobKey.incoming(ofAudio: audioKey), to: audioKey)
            let userID = try #require(UUID(uuidString: session.userID))
            try await server.withDatabase { driver in
                try await driver.write { db in
                    _ = try await EntryStore.markUploaded(
                        id: id, userID: userID, durationSeconds: nil, fromStatuses: [.pendingUpload], in: db)
                    _ = try await JobQueue.enqueue(
                        kind: TranscriptionHandler.kind, payload: TranscriptionJob(entryID: id).json, userID: userID, in: db)
                }
            }

            // Then the entry fails with a reason a person can read
            let failed = try await api.finishedTranscription(session, id)
            #expect(failed["status"] as? String == "failed")
            #expect((failed["failure_reason"] as? String)?.contains("could not be decoded") == true)

            // And the worker goes on with the next recording
            let next = try await upload(api, session, try await TestSpeech.m4a("hello"))
            #expect(try await api.finishedTranscription(session, next)["status"] as? String == "transcribed")
        }
    }

    @Test func retranscribingNeedsStoredAudio() async throws {
        try await TestServer.make(.sqlite).run { api in
            let session = try await api.register()
            let pending = try await api.createAudioEntry(session, sizeBytes: 100)
            let pendingID = try #require(pending.entry["id"] as? String)
            #expect(
                try await api.send(.post, "/v1/entries/\(pendingID)/retranscribe", token: session.accessToken).status == .conflict
            )
            let text = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: [
                    "id": UUID().uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text", "text": "Typed.",
                ])
            let textID = try #require((text.json["entry"] as? [String: Any])?["id"] as? String)
            #expect(
                try await api.send(.post, "/v1/entries/\(textID)/retranscribe", token: session.accessToken).status == .conflict)
        }
    }

    @Test func silenceIsNoSpeechNotInventedWords() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 1 }
        try await server.run { api in
            let session = try await api.register()
            let id = try await upload(api, session, try await TestSpeech.silence(seconds: 4))
            let entry = try await api.finishedTranscription(session, id)
            #expect(entry["status"] as? String == "transcribed")
            #expect(entry["no_speech"] as? Bool == true)
            #expect((entry["transcript_clean"] as? String ?? "").isEmpty)
            #expect((entry["transcript_raw"] as? String ?? "").isEmpty)
        }
    }
}
