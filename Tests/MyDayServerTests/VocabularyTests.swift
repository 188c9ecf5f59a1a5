import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// A person's vocabulary: their own list, what their titles, tags and corrections teach, and what they remove.
@Suite struct VocabularyTests {
    private func vocabulary(_ api: APIClient, _ session: APIClient.Session) async throws -> [[String: String]] {
        let reply = try await api.send(.get, "/v1/me/vocabulary", token: session.accessToken, expecting: .ok)
        return (reply.json["words"] as? [[String: Any]] ?? []).map { word in word.compactMapValues { $0 as? String } }
    }

    @Test(arguments: TestDatabase.available)
    func theListIsThePersonsOwnAndBadInputChangesNothing(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let me = try await api.register()
            let other = try await api.register()
            // Given my list, with a repeat in another case
            let put = try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": ["Siobhan", " Przemek ", "siobhan", "Kraków"]])
            #expect(put.status == .ok, "\(put.text)")
            let mine = [
                ["text": "Siobhan", "source": "you"], ["text": "Przemek", "source": "you"], ["text": "Kraków", "source": "you"],
            ]
            #expect(try await vocabulary(api, me) == mine)
            // Then nobody else sees it
            #expect(try await vocabulary(api, other).isEmpty)

            // When bad lists are sent, each is refused and nothing changes
            let tooLong = String(repeating: "a", count: 51)
            let bad: [Any] = [
                ["words": [tooLong]], ["words": [""]], ["words": ["two\nlines"]], ["words": ["!!!"]],
                ["words": (0...500).map { "Name\($0)" }], ["words": Array(repeating: "Siobhan", count: 501)],
                ["words": "Siobhan"], ["words": [1]], ["names": ["Siobhan"]],
            ]
            for body in bad {
                let reply = try await api.send(.put, "/v1/me/vocabulary", token: me.accessToken, json: body)
                #expect([400, 422].contains(reply.status.code), "\(body) answered \(reply.status)")
            }
            #expect(try await vocabulary(api, me) == mine)
            // And 500 words are the most a list may hold
            let full = try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": (0..<500).map { "Name\($0)" }])
            #expect(full.status == .ok && (full.json["words"] as? [Any])?.count == 500)
            #expect(try await api.send(.get, "/v1/me/vocabulary").status == .unauthorized)
        }
    }

    @Test(arguments: TestDatabase.available)
    func listsSentOneAfterAnotherRememberABoundedNumberOfRemovedWords(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let me = try await api.register()
            func removedRows() async throws -> Int {
                try await server.withDatabase { db in
                    try await db.read { sql in
                        try await sql.raw(
                            "SELECT COUNT(*) AS n FROM vocabulary WHERE user_id = \(bind: me.userID) AND removed = 1"
                        ).first()!.decode(column: "n", as: Int.self)
                    }
                }
            }
            // Given five full lists of new words, each sent in place of the last
            for batch in 0..<5 {
                let words = (0..<500).map { "Batch\(batch)Name\($0)" }
                try await api.send(.put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": words], expecting: .ok)
            }
            // Then the 2,000 words of the first four are remembered as removed
            #expect(try await removedRows() == 2_000)
            // When a sixth list replaces the fifth, then the oldest removed words are forgotten, never more kept
            try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": ["Siobhan"]], expecting: .ok)
            #expect(try await removedRows() == VocabularyStore.removedRemembered)
            // And the latest removed are still refused by learning: a title naming one teaches nothing
            let id = try await api.createTypedEntry(me, text: "A quiet day.")
            try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken, json: ["title": "Dinner with Batch4Name7 and Bartholomew"],
                expecting: .ok)
            let learned = try await vocabulary(api, me).map { $0["text"] }
            #expect(learned == ["Siobhan", "Bartholomew"], "\(learned)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func namesThatAMarkMakesAnotherAreKeptApartAndAccentsAreNot(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let me = try await api.register()
            // Given names that differ only by a vowel sign (Devanagari), a voicing mark (kana) or a tone mark (Thai), and
            // a Latin name typed with and without its accent
            let names = ["राम", "रमा", "カナ", "ガナ", "มาลี", "ม้าลี", "Siobhán", "siobhan", "Zoë", "ZOE"]
            let put = try await api.send(.put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": names])
            #expect(put.status == .ok, "\(put.text)")
            // Then each name of another script stays, and the accented ones count once each, first spelling kept
            #expect(
                try await vocabulary(api, me).map { $0["text"] }
                    == ["राम", "रमा", "カナ", "ガナ", "มาลี", "ม้าลี", "Siobhán", "Zoë"])
            #expect(VocabularyStore.key("Ελένη") == VocabularyStore.key("ελενη"))
            #expect(VocabularyStore.key("Алёна") == VocabularyStore.key("алена"))
        }
    }

    @Test(arguments: TestDatabase.available)
    func namesWithJoinersAreTakenAndNoLearnedWordMakesTheListRefused(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let me = try await api.register()
            // Given names whose script joins letters with U+200D and U+200C
            let joined = ["ශ්\u{200D}රී", "می\u{200C}خواهم"]
            let put = try await api.send(.put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": joined])
            #expect(put.status == .ok, "\(put.text)")
            // And a typed entry tagged with a word holding a tab, which a tag may hold and a list may not
            let id = try await api.createTypedEntry(me, text: "A walk.", createdAt: "2026-05-01T09:00:00Z")
            try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken, json: ["tags": ["Lough\tNeagh", "Kraków"]],
                expecting: .ok)
            // Then the tag with the tab is not learned, and the list as the person sees it is taken back whole
            let words = try await vocabulary(api, me)
            #expect(words.map { $0["text"] } == joined + ["Kraków"], "\(words)")
            let again = try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": words.compactMap { $0["text"] }])
            #expect(again.status == .ok, "\(again.text)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func titlesTagsAndCorrectionsTeachWordsThatStayRemovedOnceRemoved(_ database: TestDatabase) async throws {
        try await TestServer.make(database) { $0.workers = 1 }.run { api in
            let me = try await api.register()
            // Given a recording whose words the recognizer got wrong
            let heard: [(String, Double, Double)] = [
                ("I", 0.0, 0.2), ("met", 0.3, 0.5), ("Shimon", 0.6, 1.0), ("at", 1.1, 1.2), ("the", 1.3, 1.4),
                ("harbour.", 1.5, 2.0),
            ]
            let id = try await api.createAndUpload(me, try await TestSpeech.m4a(TestSpeech.diarySentence))
            try await api.send(
                .post, "/v1/entries/\(id)/complete", token: me.accessToken, json: DeviceTranscriptTests.transcript(heard),
                expecting: .ok)
            #expect(try await api.finishedTranscription(me, id)["status"] as? String == "transcribed")

            // When the person corrects the name (the web app saving once in the middle of typing it), titles the entry
            // and tags it
            for text in ["I met Sio at the harbour.", "I met Siobhan at the harbour."] {
                try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: ["text": text], expecting: .ok)
            }
            try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken,
                json: ["title": "Dinner with Przemek's family", "tags": ["Kraków", "work"]], expecting: .ok)

            // Then the vocabulary holds the new name, the title's name and the tag that is no everyday word
            #expect(
                try await vocabulary(api, me) == [
                    ["text": "Siobhan", "source": "correction"], ["text": "Przemek", "source": "title"],
                    ["text": "Kraków", "source": "tag"],
                ])

            // When the person removes a learned word and keeps the others, adding one of their own
            try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": ["Siobhan", "Kraków", "Joaquín"]],
                expecting: .ok)
            // And the same title is written again
            try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: ["title": ""], expecting: .ok)
            try await api.send(
                .patch, "/v1/entries/\(id)", token: me.accessToken, json: ["title": "Przemek again"], expecting: .ok)

            // Then the removed word is not learned again, and the kept ones keep their source
            #expect(
                try await vocabulary(api, me) == [
                    ["text": "Siobhan", "source": "correction"], ["text": "Kraków", "source": "tag"],
                    ["text": "Joaquín", "source": "you"],
                ])
            // Until the person adds it back
            try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": ["Siobhan", "Kraków", "Joaquín", "Przemek"]],
                expecting: .ok)
            #expect(try await vocabulary(api, me).last == ["text": "Przemek", "source": "you"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWordTwoEntriesTeachStaysUntilNeitherDoes(_ database: TestDatabase) async throws {
        try await TestServer.make(database) { $0.workers = 1 }.run { api in
            let me = try await api.register()
            func words() async throws -> [String: String] {
                Dictionary(uniqueKeysWithValues: try await vocabulary(api, me).map { ($0["text"] ?? "", $0["source"] ?? "") })
            }
            func deleteForGood(_ id: String) async throws {
                try await api.send(.delete, "/v1/entries/\(id)", token: me.accessToken, expecting: .noContent)
                try await api.send(.delete, "/v1/recently-deleted/\(id)", token: me.accessToken, expecting: .noContent)
            }
            // Given two notes titled with Przemek, the first also tagged kayak, and a third note tagged kayak
            var notes: [String] = []
            for (title, tags) in [("Dinner with Przemek", ["kayak"]), ("Przemek's birthday", []), ("", ["kayak"])] {
                let id = try await api.createTypedEntry(me, text: "A day.")
                var edit: [String: Any] = ["tags": tags]
                if !title.isEmpty { edit["title"] = title }
                try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: edit, expecting: .ok)
                notes.append(id)
            }
            // And two recordings in which the person corrected the same name
            let heard: [(String, Double, Double)] = [
                ("I", 0.0, 0.2), ("met", 0.3, 0.5), ("Shimon", 0.6, 1.0), ("at", 1.1, 1.2), ("the", 1.3, 1.4),
                ("harbour.", 1.5, 2.0),
            ]
            var recordings: [String] = []
            for _ in 0..<2 {
                let id = try await api.createAndUpload(me, try await TestSpeech.m4a(TestSpeech.diarySentence))
                try await api.send(
                    .post, "/v1/entries/\(id)/complete", token: me.accessToken, json: DeviceTranscriptTests.transcript(heard),
                    expecting: .ok)
                #expect(try await api.finishedTranscription(me, id)["status"] as? String == "transcribed")
                try await api.send(
                    .patch, "/v1/entries/\(id)", token: me.accessToken, json: ["text": "I met Siobhan at the harbour."],
                    expecting: .ok)
                recordings.append(id.uuidString.lowercased())
            }
            #expect(try await words() == ["Przemek": "title", "kayak": "tag", "Siobhan": "correction"])

            // When the person removes kayak, and the first note is deleted for good, then its words stay: the others
            // teach them too; kayak stays removed, and tagging another note with it again teaches nothing
            try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": ["Przemek", "Siobhan"]], expecting: .ok)
            try await deleteForGood(notes[0])
            #expect(try await words() == ["Przemek": "title", "Siobhan": "correction"])
            try await api.send(
                .patch, "/v1/entries/\(notes[2])", token: me.accessToken, json: ["tags": ["boat", "kayak"]], expecting: .ok)
            #expect(try await words()["kayak"] == nil)
            // When the first recording's correction is taken back, then the name stays: the second teaches it
            try await api.send(
                .patch, "/v1/entries/\(recordings[0])", token: me.accessToken, json: ["text": "I met Shimon at the harbour."],
                expecting: .ok)
            #expect(try await words()["Siobhan"] == "correction")
            // When the second's correction is taken back while its title names her, then the title teaches her
            try await api.send(
                .patch, "/v1/entries/\(recordings[1])", token: me.accessToken, json: ["title": "Lunch with Siobhan"],
                expecting: .ok)
            try await api.send(
                .patch, "/v1/entries/\(recordings[1])", token: me.accessToken, json: ["text": "I met Shimon at the harbour."],
                expecting: .ok)
            #expect(try await words()["Siobhan"] == "title")
            // When the last entries that teach them go, then so do the words
            for id in [notes[1], notes[2], recordings[1]] { try await deleteForGood(id) }
            #expect(try await words().isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWordStaysWithItsTeachersWhateverTheListHoldsAndGoesWithTheLastTitleThatNamedIt(_ database: TestDatabase)
        async throws
    {
        try await TestServer.make(database).run { api in
            let me = try await api.register()
            func words() async throws -> [String] { try await vocabulary(api, me).compactMap { $0["text"] } }
            func title(_ id: String, _ text: String) async throws {
                try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: ["title": text], expecting: .ok)
            }
            // Given a full list of the person's own words, then Siobhán learned before it filled up
            let first = try await api.createTypedEntry(me, text: "A day.")
            try await title(first, "Lunch with Siobhán")
            let own = (0..<499).map { "Name\($0)" }
            try await api.send(
                .put, "/v1/me/vocabulary", token: me.accessToken, json: ["words": ["Siobhán"] + own], expecting: .ok)
            // And a second note naming her without the accent, written once the list was full
            let second = try await api.createTypedEntry(me, text: "Another day.")
            try await title(second, "Tea with Siobhan")
            #expect(try await words().first == "Siobhán")
            // When the first note is erased, then she stays, spelled as the note that teaches her now spells her
            try await api.send(.delete, "/v1/entries/\(first)", token: me.accessToken, expecting: .noContent)
            try await api.send(.delete, "/v1/recently-deleted/\(first)", token: me.accessToken, expecting: .noContent)
            #expect(try await words().first == "Siobhan")
            // When the second note's title no longer names her, then she goes: no entry teaches her
            try await title(second, "Dinner")
            #expect(try await words() == own)
        }
    }

    @Test func correctionsTeachOnlyTheWordsTypedInPlaceOfHeardOnes() {
        #expect(
            VocabularyLearning.corrections(from: "I met Shimon at the harbour.", to: "I met Siobhan at the harbour.") == [
                "Siobhan"
            ])
        // A name's possessive is the name
        #expect(VocabularyLearning.corrections(from: "It was Shimon's idea.", to: "It was Siobhan's idea.") == ["Siobhan"])
        // "The R&M" → "Przemek": two heard words, one typed
        #expect(VocabularyLearning.corrections(from: "Lunch with The R&M today", to: "Lunch with Przemek today") == ["Przemek"])
        // Words only added, or only removed, are writing, not corrections
        #expect(VocabularyLearning.corrections(from: "We walked.", to: "We walked by Lough Neagh.").isEmpty)
        #expect(VocabularyLearning.corrections(from: "We walked by the lake.", to: "We walked.").isEmpty)
        // A rewritten sentence teaches nothing; everyday words never
        #expect(
            VocabularyLearning.corrections(
                from: "The meeting went fine.", to: "Honestly the board hated every single slide Ingrid showed."
            ).isEmpty)
        #expect(VocabularyLearning.corrections(from: "I went their today", to: "I went there today").isEmpty)
        // A mark of another script makes another name: typed in place of the one heard, it is a correction
        #expect(VocabularyLearning.corrections(heard: "I met カナ today", typed: "I met ガナ today") == ["ガナ"])
        #expect(VocabularyLearning.corrections(heard: "Tea with Siobhán", typed: "Tea with Siobhan").isEmpty)
        #expect(
            VocabularyStore.key("מִרְיָם") == VocabularyStore.key("מרים")
                && VocabularyStore.key("Bob❤️") == VocabularyStore.key("Bob❤"))
        #expect(VocabularyLearning.words(inTitle: "Dinner with Siobhan and Zoë's kids") == ["Siobhan", "Zoë"])
        #expect(VocabularyLearning.words(inTags: ["work", "Dún Laoghaire", "kayak"]) == ["kayak"])
    }
}
