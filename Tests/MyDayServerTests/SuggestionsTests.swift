import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// `GET /v1/entries/{id}/suggestions`: a title, tags and a mood from the entry's own words, applied only when accepted.
@Suite struct SuggestionsTests {
    @Test func theTitleIsAPhraseOfTheEntryAndTheTagsAndMoodComeFromItsWords() {
        let text =
            "Today I went kayaking with Siobhan on the lake. The kayak was lovely and we laughed all afternoon. "
            + "Siobhan wants to go kayaking again next week."
        let made = EntrySuggestions.make(text: text, language: "en-GB", existingTags: ["work", "lake", "family"])
        // A phrase of the entry, word for word (only its first letter may be raised)
        let title = try! #require(made.title)
        #expect(text.lowercased().contains(title.lowercased()), "\(title)")
        #expect(title.split(separator: " ").count >= 2 && title.contains("kayaking"), "\(title)")
        // The person's tag the entry talks about first, then its repeated key words; never a tag it does not mention
        #expect(made.tags.first == "lake" && !made.tags.contains("work") && made.tags.contains("siobhan"), "\(made.tags)")
        // Glad words, a glad mood
        #expect((made.mood ?? 0) >= 4)
        // Sad words, a low one; too few words that feel, none; a language without a list, none
        let sad = EntrySuggestions.make(
            text: "I felt lonely and tired. The news was awful and I cried.", language: "en", existingTags: [])
        #expect((sad.mood ?? 5) <= 2)
        #expect(EntrySuggestions.make(text: "Bought bread. Posted the letter.", language: "en", existingTags: []).mood == nil)
        #expect(
            EntrySuggestions.make(text: "Heureux, heureux, une journée merveilleuse.", language: "fr", existingTags: []).mood
                == nil)
        #expect(EntrySuggestions.make(text: "", language: "en", existingTags: ["lake"]) == .init(title: nil, tags: [], mood: nil))
    }

    @Test func aNegationWrittenShortTurnsTheMoodAroundAndIsNoTag() {
        // Given glad words each said with a short "not"
        let made = EntrySuggestions.make(
            text: "I wasn't happy and didn't have a good time. Wasn't lovely, didn’t enjoy it.", language: "en",
            existingTags: [])
        // Then the mood is low, and no half of a contraction is a tag
        #expect((made.mood ?? 5) <= 2, "\(String(describing: made.mood))")
        #expect(made.tags.allSatisfy { !["wasn", "didn"].contains($0) }, "\(made.tags)")
    }

    @Test(arguments: TestDatabase.available)
    func suggestionsChangeNothingUntilAcceptedAndAreTheOwnersAlone(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let me = try await api.register()
            let other = try await api.register()
            // Given an earlier entry tagged "garden", and a new one about the garden
            func typed(_ text: String, tags: [String] = []) async throws -> String {
                let id = UUID().uuidString.lowercased()
                try await api.send(
                    .post, "/v1/entries", token: me.accessToken,
                    json: [
                        "id": id, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "duration_s": 0, "kind": "text",
                        "text": text,
                    ],
                    expecting: .created)
                if !tags.isEmpty {
                    try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: ["tags": tags], expecting: .ok)
                }
                return id
            }
            _ = try await typed("Weeded the beds.", tags: ["garden"])
            let id = try await typed("Planted tomatoes in the garden with Przemek. A wonderful, happy morning in the sun.")
            let before = try await api.send(.get, "/v1/entries/\(id)", token: me.accessToken).text

            // When suggestions are asked for
            let reply = try await api.send(.get, "/v1/entries/\(id)/suggestions", token: me.accessToken, expecting: .ok)
            let title = try #require(reply.json["title"] as? String)
            #expect("Planted tomatoes in the garden with Przemek.".lowercased().contains(title.lowercased()), "\(title)")
            #expect((reply.json["tags"] as? [String])?.first == "garden")
            #expect((reply.json["mood"] as? Int ?? 0) >= 4)
            // Then the entry is as it was
            #expect(try await api.send(.get, "/v1/entries/\(id)", token: me.accessToken).text == before)
            // And accepting one is an ordinary edit
            let accepted = try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: ["title": title])
            #expect(accepted.json["title"] as? String == title)
            // Nobody else may ask
            #expect(try await api.send(.get, "/v1/entries/\(id)/suggestions", token: other.accessToken).status == .notFound)
        }
    }
}
