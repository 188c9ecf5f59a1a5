import Foundation
import MyDayTestSupport
import OpenAIStandIns
import Synchronization
import Testing

@testable import MyDayServer

/// A language the engine doubted gives way to the one the person speaks to their diary.
@Suite struct UsualLanguageTests {
    @Test func theUsualLanguageIsWhatMostOfTheLatestRecordingsWereHeardIn() {
        #expect(UsualLanguage.of(["en", "en-GB", "EN"]) == "en")
        #expect(UsualLanguage.of(["en", "en", "en", "fr"]) == "en")
        // Too few recordings, or no language three in four of them were heard in
        #expect(UsualLanguage.of(["en", "en"]) == nil)
        #expect(UsualLanguage.of(["en", "en", "en", "fr", "fr"]) == nil)
        #expect(UsualLanguage.of([]) == nil)
        // A language named in words (OpenAI's service does) is no code an engine can be told
        #expect(UsualLanguage.of(["english", "english", "english"]) == nil)
        // Only the latest count
        #expect(UsualLanguage.of(Array(repeating: "de", count: 20) + Array(repeating: "en", count: 30)) == "de")
    }

    /// A Whisper-like server that hears English, sure of it, `sureAnswers` times; then, unless it is told the language,
    /// takes the same words for Thai and doubts it, as Whisper does with some short clips.
    private static func speech(sureAnswers: Int) -> OpenAIStandIn {
        let answered = Mutex(0)
        return OpenAIStandIn(
            .reply { body in
                let told = String(decoding: body, as: UTF8.self).contains(#"name="language""#)
                let count = answered.withLock {
                    $0 += 1
                    return $0
                }
                let (text, language, sure) =
                    told || count <= sureAnswers ? ("Hello there.", "en", 0.97) : ("สวัสดี", "th", 0.34)
                return #"""
                    {"task":"transcribe","language":"\#(language)","language_probability":\#(sure),"duration":1.0,
                     "text":"\#(text)","words":[{"word":"\#(text)","start":0.0,"end":0.9,"probability":0.9}]}
                    """#
            })
    }

    @Test(arguments: TestDatabase.available)
    func aDoubtedLanguageIsHeardAgainInThePersonsUsualOne(_ database: TestDatabase) async throws {
        let speech = Self.speech(sureAnswers: 3)
        try await speech.serve { port in
            let server = try await TestServer.make(database) {
                $0.workers = 1
                $0.asrURL = "http://127.0.0.1:\(port)"
                $0.asrModel = "whisper-test"
            }
            try await server.run { api in
                let audio = try await TestSpeech.m4a("hello there")
                func transcribed(_ session: APIClient.Session) async throws -> [String: Any] {
                    let id = try await api.createAndUpload(session, audio)
                    try await api.send(.post, "/v1/entries/\(id)/complete", token: session.accessToken, expecting: .ok)
                    return try await api.finishedTranscription(session, id)
                }
                // Given a person whose three recordings were heard in English, surely
                let person = try await api.register()
                for _ in 1...3 { #expect(try await transcribed(person)["language"] as? String == "en") }
                let stranger = try await api.register()

                // When the engine takes their next recording for Thai and doubts it
                let entry = try await transcribed(person)

                // Then it is heard again in English, and its words are English
                #expect(entry["language"] as? String == "en")
                #expect(entry["transcript_raw"] as? String == "Hello there.")
                let requests = speech.received.withLock { $0.map { String(decoding: $0.body, as: UTF8.self) } }
                #expect(requests.count == 5)
                #expect(requests.last?.contains(#"name="language""#) == true)

                // And a person with no recordings yet has no usual language: the engine's guess stands
                let first = try await transcribed(stranger)
                #expect(first["language"] as? String == "th")
                #expect(speech.received.withLock { $0.count } == 6)
            }
        }
    }
}
