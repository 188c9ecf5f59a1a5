import Foundation
import MyDaySpeech
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// A transcript that looks broken is marked `needs_review` with the reason, and shown; writing its words clears it and
/// marks them as the person's (`words_edited`).
@Suite struct TranscriptReviewTests {
    private func words(_ text: String, every step: Double = 0.4) -> [RecognizedWord] {
        text.split(separator: " ").enumerated().map { index, word in
            RecognizedWord(word: String(word), start: Double(index) * step, end: Double(index) * step + 0.3)
        }
    }

    @Test func brokenLookingTranscriptsAreNamedAndSoundOnesAreNot() throws {
        // One stock phrase for half a minute of audio
        let thanks = try #require(TranscriptReview.reason(words: words("Thank you."), clean: "Thank you.", seconds: 31))
        #expect(thanks.contains("Only “Thank you.” was heard in 31 seconds of audio"), "\(thanks)")
        // ... but a short "Thank you." is what someone said
        #expect(TranscriptReview.reason(words: words("Thank you."), clean: "Thank you.", seconds: 3) == nil)
        // Eleven words in five minutes
        let sparse = "We went out and then it rained so we came home"
        let few = try #require(TranscriptReview.reason(words: words(sparse), clean: sparse, seconds: 300))
        #expect(few.contains("Only 11 words were heard in 5 minutes of audio"), "\(few)")
        #expect(TranscriptReview.reason(words: words(sparse), clean: sparse, seconds: 20) == nil)
        // A loop
        let loop = "I went to the shop. I went to the shop. I went to the shop. I went to the shop."
        let looped = try #require(TranscriptReview.reason(words: words(loop), clean: loop, seconds: 8))
        #expect(looped.contains("“i went to the shop” comes 4 times in a row"), "\(looped)")
        // People repeat a word for emphasis, and say a phrase twice
        for said in ["No, no, no, no, I said no.", "Very very good. It was a good day, a good day."] {
            #expect(TranscriptReview.reason(words: words(said), clean: said, seconds: 6) == nil, "\(said)")
        }
        #expect(TranscriptReview.reason(words: [], clean: "", seconds: 600) == nil)
    }

    @Test(arguments: TestDatabase.available)
    func anEntryThatNeedsALookSaysWhyUntilItsWordsAreWritten(_ database: TestDatabase) async throws {
        try await TestServer.make(database) { $0.workers = 1 }.run { api in
            let me = try await api.register()
            // Given a recording whose words loop
            let heard = "we walked we walked we walked we walked we walked home".split(separator: " ").enumerated().map {
                (String($0.element), Double($0.offset) * 0.3, Double($0.offset) * 0.3 + 0.2)
            }
            let id = try await api.createAndUpload(me, try await TestSpeech.m4a(TestSpeech.diarySentence))
            try await api.send(
                .post, "/v1/entries/\(id)/complete", token: me.accessToken, json: DeviceTranscriptTests.transcript(heard),
                expecting: .ok)
            // Then it is transcribed, and marked, with the reason
            let entry = try await api.finishedTranscription(me, id)
            #expect(entry["status"] as? String == "transcribed")
            #expect(entry["needs_review"] as? Bool == true, "\(entry)")
            #expect((entry["review_reason"] as? String)?.contains("“we walked” comes 5 times in a row") == true)
            // And the list and the change feed say so too
            let listed = try await api.send(.get, "/v1/entries", token: me.accessToken).json["entries"] as? [[String: Any]]
            #expect(listed?.first?["needs_review"] as? Bool == true)

            // When the person writes the words themselves, the mark goes
            let edited = try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken, json: ["text": "We walked home."], expecting: .ok)
            #expect(edited.json["needs_review"] as? Bool == false && edited.json["review_reason"] == nil)
            // and the words are marked as theirs, no longer automatic (they were before), in the list too
            #expect(entry["words_edited"] == nil)
            #expect(edited.json["words_edited"] as? Bool == true)
            let relisted = try await api.send(.get, "/v1/entries", token: me.accessToken).json["entries"] as? [[String: Any]]
            #expect(relisted?.first?["words_edited"] as? Bool == true)
            // Put back to what was heard, they are automatic again
            let heardText = try #require(entry["transcript_raw"] as? String)
            let putBack = try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken, json: ["text": heardText], expecting: .ok)
            #expect(putBack.json["words_edited"] == nil, "\(putBack.json)")
            // A typed entry's words are the person's own: never marked
            let typedID = UUID().uuidString.lowercased()
            try await api.send(
                .post, "/v1/entries", token: me.accessToken,
                json: [
                    "id": typedID, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "duration_s": 0, "kind": "text",
                    "text": "Typed.",
                ], expecting: .created)
            let typed = try await api.send(
                .patch, "/v1/entries/\(typedID)", token: me.accessToken, json: ["text": "Typed again."], expecting: .ok)
            #expect(typed.json["words_edited"] == nil)
        }
    }
}
