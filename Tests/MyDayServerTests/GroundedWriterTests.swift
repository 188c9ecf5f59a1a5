import Foundation
import MyDayTestSupport
import OpenAIStandIns
import Synchronization
import Testing

@testable import MyDayServer

/// With `MYDAY_LLM_URL`, a model may write digests and titles, but only in the person's words.
@Suite struct GroundedWriterTests {
    @Test func everyWordButThoseThatJoinOthersMustHaveBeenSaid() {
        let said = "Rowed across the harbour with Siobhan. Cold but lovely."
        #expect(GroundedWriter.invented(in: "I rowed across the harbour with Siobhan.", words: said).isEmpty)
        #expect(GroundedWriter.invented(in: "Rowed with Siobhan and Przemek.", words: said) == ["przemek"])
        #expect(GroundedWriter.invented(in: "A sunny, happy swim.", words: said) == ["sunny", "happy", "swim"])
        // Everyday words say things too: an illness, a number, a "not" turn the day into another
        let lunch = "Lunch with Sam at the office. Good talk."
        #expect(
            GroundedWriter.invented(in: "I was sick and went to the hospital with Sam.", words: lunch) == [
                "sick", "went", "hospital",
            ])
        #expect(GroundedWriter.invented(in: "Not a good talk with Sam.", words: lunch) == ["not"])
        #expect(GroundedWriter.invented(in: "Lunch with two at the office.", words: lunch) == ["two"])
    }

    @Test(arguments: TestDatabase.available)
    func theModelsDigestAndTitleAreKeptOnlyWhenEveryWordIsThePersons(_ database: TestDatabase) async throws {
        // Given a model that summarises in the day's words, until it starts to invent
        let invents = Mutex(false)
        let model = OpenAIStandIn(
            .reply { body in
                let asked = String(decoding: body, as: UTF8.self)
                let inventing = invents.withLock { $0 }
                if asked.contains("title") {
                    return OpenAIStandIn.chatAnswer(inventing ? "A sunny regatta" : "Across the harbour with Siobhan")
                }
                return OpenAIStandIn.chatAnswer(
                    inventing
                        ? "I won the regatta with Siobhan."
                        : "I rowed across the harbour with Siobhan. I sent the report to Przemek.")
            }, path: "/v1/chat/completions")
        try await model.serve { port in
            try await TestServer.make(database) { $0.llmURL = "http://127.0.0.1:\(port)" }.run { api in
                let me = try await api.register()
                var ids: [String] = []
                for (at, text) in [
                    ("2026-05-01T09:00:00Z", "Rowed across the harbour with Siobhan this morning, cold but lovely."),
                    ("2026-05-01T19:00:00Z", "Finished the report and sent it to Przemek before the deadline."),
                ] {
                    let id = UUID().uuidString.lowercased()
                    ids.append(id)
                    try await api.send(
                        .post, "/v1/entries", token: me.accessToken,
                        json: ["id": id, "created_at": at, "tz": "UTC", "duration_s": 0, "kind": "text", "text": text],
                        expecting: .created)
                }
                // When the day is opened, the model's digest is used: its words are all the day's
                let page = try await api.send(.get, "/v1/days/2026-05-01", token: me.accessToken, expecting: .ok).json
                let digest = try #require(page["digest"] as? [[String: Any]])
                #expect(
                    digest.map { $0["text"] as? String } == [
                        "I rowed across the harbour with Siobhan.", "I sent the report to Przemek.",
                    ])
                #expect(digest.allSatisfy { $0["by_model"] as? Bool == true })
                // (each sentence points at the entry it draws on)
                #expect(digest.map { $0["entry_id"] as? String } == ids)
                let title = try await api.send(.get, "/v1/entries/\(ids[0])/suggestions", token: me.accessToken, expecting: .ok)
                    .json
                #expect(
                    title["title"] as? String == "Across the harbour with Siobhan" && title["title_by_model"] as? Bool == true,
                    "\(title)")

                // When it invents ("regatta", "won", "sunny"), the day's own sentences and title come back
                invents.withLock { $0 = true }
                let own = try await api.send(.get, "/v1/days/2026-05-01", token: me.accessToken, expecting: .ok).json
                let ownDigest = try #require(own["digest"] as? [[String: Any]])
                #expect(!ownDigest.isEmpty && ownDigest.allSatisfy { $0["by_model"] == nil })
                #expect(ownDigest.contains { ($0["text"] as? String)?.hasPrefix("Rowed across the harbour") == true })
                let ownTitle = try await api.send(
                    .get, "/v1/entries/\(ids[0])/suggestions", token: me.accessToken, expecting: .ok
                ).json
                #expect(ownTitle["title_by_model"] == nil && ownTitle["title"] as? String != "A sunny regatta")
            }
        }
    }
}
