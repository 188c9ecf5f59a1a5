import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// A phone that transcribed a recording itself sends the words with `complete`; the server only cleans them.
@Suite(.serialized) struct DeviceTranscriptTests {
    /// What a phone's recognizer heard in a recording of `TestSpeech.diarySentence`, deliberately other words,
    /// so a transcript made by the server's own recognizer would show.
    static let heard: [(String, Double, Double)] = [
        ("Um,", 0.0, 0.3), ("so", 0.4, 0.6), ("today", 0.7, 1.0), ("I", 1.1, 1.2), ("I", 1.3, 1.4),
        ("rowed", 1.5, 1.8), ("across", 1.9, 2.2), ("the", 2.3, 2.4), ("harbour.", 2.5, 2.9),
    ]

    static func transcript(
        _ words: [(String, Double, Double)] = heard, text: String? = nil, language: String? = "en-GB", extra: [String: Any] = [:]
    ) -> [String: Any] {
        var transcript: [String: Any] = [
            "text": text ?? words.map(\.0).joined(separator: " "),
            "words": words.map { ["word": $0.0, "start": $0.1, "end": $0.2] },
            "engine": "apple-speech",
        ]
        transcript["language"] = language
        transcript.merge(extra) { $1 }
        return ["transcript": transcript]
    }

    private func uploadWithoutCompleting(_ api: APIClient, _ session: APIClient.Session) async throws -> UUID {
        try await api.createAndUpload(session, try await TestSpeech.m4a(TestSpeech.diarySentence))
    }

    @Test(arguments: TestDatabase.available)
    func theDevicesWordsAreCleanedAndNotRecognisedAgain(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.workers = 1 }
        try await server.run { api in
            let session = try await api.register()
            let id = try await uploadWithoutCompleting(api, session)

            // When the phone completes the upload with what its own recognizer heard
            let completed = try await api.send(
                .post, "/v1/entries/\(id)/complete", token: session.accessToken, json: Self.transcript())
            #expect(completed.status == .ok && completed.json["status"] as? String == "uploaded", "\(completed.text)")

            // Then the entry is transcribed from those words: raw as sent, cleaned by the server's rules
            let entry = try await api.finishedTranscription(session, id)
            #expect(entry["status"] as? String == "transcribed", "\(entry)")
            #expect(entry["transcript_raw"] as? String == "Um, so today I I rowed across the harbour.")
            let clean = try #require(entry["transcript_clean"] as? String)
            let cleanWords = clean.lowercased().split { !$0.isLetter }.map(String.init)
            #expect(cleanWords == ["so", "today", "i", "rowed", "across", "the", "harbour"], "clean: \(clean)")
            #expect(clean.first?.isUppercase == true && clean.hasSuffix("."), "clean: \(clean)")
            #expect(entry["language"] as? String == "en-GB" && entry["no_speech"] as? Bool == false)

            // And the server's recognizer never ran: no word of the spoken sentence, no recognize stage
            #expect(!clean.contains("sister") && !clean.contains("park"))
            let metrics = try await api.send(.get, "/metrics").text
            #expect(!metrics.contains(#"myday_transcription_stage_duration_seconds_count{stage="recognize"}"#))
            #expect(metrics.contains(#"myday_transcription_stage_duration_seconds_count{stage="clean"} 1"#))

            // And asking for a fresh transcript uses the server's own recognizer on the same audio
            let again = try await api.send(.post, "/v1/entries/\(id)/retranscribe", token: session.accessToken)
            #expect(again.status == .accepted)
            let redone = try await api.finishedTranscription(session, id)
            #expect((redone["transcript_raw"] as? String)?.contains("harbour") == false, "\(redone)")
        }
    }

    @Test func noWordsFromTheDeviceIsNoSpeech() async throws {
        try await TestServer.make(.sqlite) { $0.workers = 1 }.run { api in
            let session = try await api.register()
            let id = try await uploadWithoutCompleting(api, session)
            let completed = try await api.send(
                .post, "/v1/entries/\(id)/complete", token: session.accessToken, json: Self.transcript([], text: ""))
            #expect(completed.status == .ok, "\(completed.text)")
            let entry = try await api.finishedTranscription(session, id)
            #expect(entry["status"] as? String == "transcribed" && entry["no_speech"] as? Bool == true, "\(entry)")
            #expect(entry["transcript_clean"] as? String == "" && entry["transcript_raw"] as? String == "")
        }
    }

    @Test func aLongRecordingsWordsFitTheLargerLimitOfComplete() async throws {
        try await TestServer.make(.sqlite).run { api in
            let session = try await api.register()
            let id = try await uploadWithoutCompleting(api, session)
            // Given 30,000 timed words, over 1 MiB as JSON (the limit of every other body)
            let words = (0..<30_000).map { ("w\($0 % 50)", Double($0) / 10_000, Double($0) / 10_000) }
            let body = Self.transcript(words)
            #expect(try JSONSerialization.data(withJSONObject: body).count > 1_048_576)
            // When a body over 8 MiB is sent, then it is refused as too large and nothing changes
            let huge = Self.transcript(extra: ["text": String(repeating: "a", count: 9 * 1_048_576)])
            let refused = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken, json: huge)
            #expect(refused.status == .contentTooLarge, "\(refused.text)")
            let waiting = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
            #expect(waiting["status"] as? String == "pending_upload")
            // When the long transcript is sent, then it is taken
            let completed = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken, json: body)
            #expect(completed.status == .ok, "\(completed.status) \(completed.text.prefix(300))")
            #expect(completed.json["status"] as? String == "uploaded")
        }
    }

    @Test func aTranscriptThatDoesNotHoldUpIsRefusedAndChangesNothing() async throws {
        try await TestServer.make(.sqlite) { $0.workers = 1 }.run { api in
            let session = try await api.register()
            let id = try await uploadWithoutCompleting(api, session)
            var words = Self.heard
            words[8] = ("harbour.", 2.5, 60)
            let refused: [(String, [String: Any], String)] = [
                ("a word after the audio ends", Self.transcript(words), "after the audio"),
                (
                    "a word the text does not have", Self.transcript(text: "Um, so today I I rowed across the whole harbour."),
                    "text"
                ),
                ("text without words", Self.transcript([], text: "hello"), "text"),
                ("words out of order", Self.transcript([("today", 1, 1.2), ("so", 0.2, 0.4)], text: "today so"), "order"),
                ("a word that ends before it starts", Self.transcript([("so", 1, 0.5)], text: "so"), "start <= end"),
                ("a word with no letter", Self.transcript([("so", 0, 0.2), ("—", 0.3, 0.4)], text: "so —"), "letter"),
                ("two words as one", Self.transcript([("so today", 0, 0.4)], text: "so today"), "one word"),
                ("a language that is no tag", Self.transcript(language: "English!"), "BCP 47"),
                ("an engine that is no name", Self.transcript(extra: ["engine": "my engine; DROP"]), "engine"),
            ]
            for (what, body, message) in refused {
                let reply = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken, json: body)
                #expect(reply.status == .unprocessableContent, "\(what): \(reply.status) \(reply.text)")
                #expect(reply.text.contains(message), "\(what): \(reply.text)")
            }
            let unknownField = try await api.send(
                .post, "/v1/entries/\(id)/complete", token: session.accessToken,
                json: Self.transcript(extra: ["confidence": 0.9]))
            #expect(unknownField.status == .badRequest, "\(unknownField.text)")

            // Then the entry is still waiting, its audio still there, and a plain complete goes on as usual
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
            #expect(entry["status"] as? String == "pending_upload")
            let plain = try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
            #expect(plain.json["status"] as? String == "uploaded", "\(plain.text)")
            let transcribed = try await api.finishedTranscription(session, id)
            #expect(transcribed["status"] as? String == "transcribed", "\(transcribed)")
            #expect((transcribed["transcript_raw"] as? String)?.contains("harbour") == false, "\(transcribed)")
        }
    }
}
