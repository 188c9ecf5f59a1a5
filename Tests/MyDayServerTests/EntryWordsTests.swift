import Foundation
import MyDaySpeech
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// `GET /v1/entries/{id}/words`: the words as they read now, with the times of the ones the recognizer heard.
@Suite struct EntryWordsTests {
    @Test func wordsThatSurviveAnEditKeepTheirTimesAndTypedOnesHaveNone() {
        let heard = [
            RecognizedWord(word: "um,", start: 0, end: 0.2, probability: 0.4),
            RecognizedWord(word: "so", start: 0.3, end: 0.5, probability: 0.9),
            RecognizedWord(word: "I", start: 0.6, end: 0.7, probability: 0.99),
            RecognizedWord(word: "met", start: 0.8, end: 1.0, probability: 0.98),
            RecognizedWord(word: "Shimon", start: 1.1, end: 1.6, probability: 0.31),
            RecognizedWord(word: "today.", start: 1.7, end: 2.2, probability: 0.97),
        ]
        // Cleaned (filler gone, capitalised) and corrected by the person
        let words = EntryWords.align(text: "So I met Siobhan today, happily.", heard: heard)
        #expect(words.map(\.text) == ["So", "I", "met", "Siobhan", "today,", "happily."])
        #expect(words.map(\.start) == [0.3, 0.6, 0.8, nil, 1.7, nil])
        #expect(words.map(\.probability) == [0.9, 0.99, 0.98, nil, 0.97, nil])
        #expect(EntryWords.align(text: "", heard: heard).isEmpty)
        #expect(EntryWords.align(text: "Typed only", heard: []).allSatisfy { $0.start == nil })
    }

    @Test(arguments: TestDatabase.available)
    func theRouteServesTheOwnersWordsInOrderWithinTheAudio(_ database: TestDatabase) async throws {
        try await TestServer.make(database) { $0.workers = 1 }.run { api in
            let me = try await api.register()
            let other = try await api.register()
            // Given a transcribed recording, and a typed entry
            let id = try await api.createAndUpload(me, try await TestSpeech.m4a(TestSpeech.diarySentence))
            try await api.send(
                .post, "/v1/entries/\(id)/complete", token: me.accessToken, json: DeviceTranscriptTests.transcript(),
                expecting: .ok)
            let entry = try await api.finishedTranscription(me, id)
            let duration = try #require(entry["duration_s"] as? Double)
            let typed = UUID()
            try await api.send(
                .post, "/v1/entries", token: me.accessToken,
                json: [
                    "id": typed.uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text",
                    "duration_s": 0, "text": "Written, not said.",
                ], expecting: .created)

            // Then the words are those of the clean text, timed, in order, within the audio
            let reply = try await api.send(.get, "/v1/entries/\(id)/words", token: me.accessToken, expecting: .ok)
            let words = try #require(reply.json["words"] as? [[String: Any]])
            #expect(
                words.map { $0["text"] as? String }
                    == (entry["transcript_clean"] as? String)?.split(separator: " ").map(String.init))
            let starts = words.compactMap { $0["start"] as? Double }
            #expect(starts.count == words.count && starts == starts.sorted())
            #expect(
                words.allSatisfy { word in
                    guard let start = word["start"] as? Double, let end = word["end"] as? Double else { return false }
                    return start <= end && end <= duration + 0.5
                })

            // When the person corrects one word, it loses its time and the others keep theirs
            let clean = try #require(entry["transcript_clean"] as? String)
            try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken,
                json: ["text": clean.replacingOccurrences(of: "rowed", with: "sailed")], expecting: .ok)
            let edited = try #require(
                try await api.send(.get, "/v1/entries/\(id)/words", token: me.accessToken).json["words"] as? [[String: Any]])
            #expect(edited.filter { $0["start"] == nil }.map { $0["text"] as? String } == ["sailed"])
            #expect(edited.compactMap { $0["start"] as? Double }.count == words.count - 1)

            // And a typed entry has none; another person's entry and a deleted one are not found
            let none = try await api.send(.get, "/v1/entries/\(typed)/words", token: me.accessToken, expecting: .ok)
            #expect((none.json["words"] as? [Any])?.isEmpty == true)
            #expect(try await api.send(.get, "/v1/entries/\(id)/words", token: other.accessToken).status == .notFound)
            try await api.send(.delete, "/v1/entries/\(id)", token: me.accessToken, expecting: .noContent)
            #expect(try await api.send(.get, "/v1/entries/\(id)/words", token: me.accessToken).status == .notFound)
        }
    }
}
