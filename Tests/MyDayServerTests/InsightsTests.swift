import Foundation
import MyDaySearch
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// `GET /v1/me/insights`: each day's figures, the streaks, and the people, places and topics mentioned most.
@Suite struct InsightsTests {
    private func day(_ text: String) -> LocalDay { LocalDay(iso: text)! }

    @Test func halvesOfAShortNegationAreNoTopics() {
        // Given entries that come back to the garden and say "didn't" and "wasn't" in each
        let entries = [
            "I didn't sleep. The garden wasn't ready.", "Didn't rain. Worked in the garden, wasn't cold.",
            "Wasn't sure about the garden. Didn't mind.",
        ].map { Mentions.Source(text: $0, tags: []) }
        // Then the garden is a topic, and no "didn" or "wasn"
        let topics = Mentions(entries).topics.map(\.text)
        #expect(topics.contains("garden") && !topics.contains("didn") && !topics.contains("wasn"), "\(topics)")
    }

    @Test func namesArePeopleOrPlacesByTheWordsAroundThem() {
        let text = """
            Went kayaking with Siobhan this morning. Then we drove to Dún Laoghaire for chips. \
            Siobhan's brother Przemek came too, and Przemek said the water was warm. We ate in Sandycove. \
            Monday in March: Siobhan again.
            """
        let words = Mentions.sentenceWords(text)
        let names = Mentions.names(in: words, known: Mentions.capitalisedInside([words]))
        #expect(names.map(\.text) == ["Siobhan", "Dún Laoghaire", "Siobhan", "Przemek", "Przemek", "Sandycove", "Siobhan"])
        #expect(names.map(\.kind) == [.person, .place, .person, .person, .person, .place, nil])
        // "to" leads to a place after a verb of going and to a person after one of speaking; "at the" to a place
        let more = Mentions.names(
            in: Mentions.sentenceWords("Her move to Porto. We talked to Joe. Drinks at the Crown."), known: [])
        #expect(more.map(\.text) == ["Porto", "Joe", "Crown"] && more.map(\.kind) == [.place, .person, .place])
        // A sentence's first word is a name only when the text capitalises it inside a sentence too
        #expect(Mentions.names(in: Mentions.sentenceWords("Kayaking is fun. Lisbon was hot."), known: []).isEmpty)
        #expect(
            Mentions.names(
                in: Mentions.sentenceWords("Lisbon was hot."),
                known: Mentions.capitalisedInside([Mentions.sentenceWords("We loved Lisbon.")])
            ).map(\.text) == ["Lisbon"])
    }

    @Test func namesAreFoundInsideQuotesBracketsAndPunctuationOfAnyScript() {
        let text = #"We told "Joe" and [Amira] about it; then «Ciarán», Siobhan's friend, came from (Dún Laoghaire)."#
        let names = Mentions.names(in: Mentions.sentenceWords(text), known: [])
        #expect(names.map(\.text) == ["Joe", "Amira", "Ciarán", "Siobhan", "Dún Laoghaire"])
        #expect(names.map(\.kind) == [.person, nil, nil, .person, .place])
    }

    @Test func mentionsCountEntriesNotRepeatsAndTopicsAreTagsThenWordsComeBackTo() {
        let mentions = Mentions([
            .init(text: "Kayaking with Siobhan. Siobhan laughed at the kayak.", tags: ["sea"]),
            .init(text: "Swam at Sandycove with Siobhan; the kayak leaked.", tags: ["sea", "swim"]),
            .init(text: "Lunch with Przemek in Sandycove. Nothing about kayaks.", tags: []),
        ])
        #expect(mentions.people == [.init(text: "Siobhan", count: 2), .init(text: "Przemek", count: 1)])
        #expect(mentions.places == [.init(text: "Sandycove", count: 2)])
        #expect(mentions.topics == [.init(text: "sea", count: 2), .init(text: "swim", count: 1), .init(text: "kayak", count: 3)])
    }

    @Test func streaksCountRunsAndTheCurrentOneLastsUntilADayIsMissed() {
        let days: Set<LocalDay> = [day("2024-02-27"), day("2024-02-28"), day("2024-02-29"), day("2024-03-01"), day("2024-03-03")]
        let streaks = Streaks(days: days, today: day("2024-03-03"))
        #expect(streaks.current == 1 && streaks.longest == 4)
        #expect(Streaks(days: days, today: day("2024-03-04")).current == 1)
        #expect(Streaks(days: days, today: day("2024-03-05")).current == 0)
        #expect(Streaks(days: days, today: day("2024-03-02")).current == 4)
        let none = Streaks(days: [], today: day("2024-03-02"))
        #expect(none.current == 0 && none.longest == 0)
    }

    @Test(arguments: TestDatabase.available)
    func theFiguresAreThoseOfTheOwnersEntriesInTheSpan(_ database: TestDatabase) async throws {
        let now = try Date("2026-05-04T10:00:00Z", strategy: .iso8601)
        try await TestServer.make(database) {
            $0.clock = { now }
            $0.workers = 1
        }.run { api in
            let me = try await api.register()
            let other = try await api.register()
            // Given typed entries on 1, 2 and 3 May (Paris), two of them on the 2nd, with moods and tags
            struct Typed {
                let at: String
                let text: String
                let mood: Int?
                let tags: [String]
            }
            let typed = [
                Typed(at: "2026-05-01T08:00:00Z", text: "Swam at Sandycove with Siobhan.", mood: 4, tags: ["sea"]),
                Typed(at: "2026-05-02T08:00:00Z", text: "Rain all day, stayed in.", mood: 2, tags: []),
                Typed(at: "2026-05-02T20:00:00Z", text: "Siobhan called; we laughed for an hour.", mood: 5, tags: ["sea"]),
                Typed(at: "2026-05-03T21:59:00Z", text: "Late note, still the third in Paris.", mood: nil, tags: []),
            ]
            for entry in typed {
                let id = UUID().uuidString.lowercased()
                try await api.send(
                    .post, "/v1/entries", token: me.accessToken,
                    json: [
                        "id": id, "created_at": entry.at, "tz": "Europe/Paris", "duration_s": 0, "kind": "text",
                        "text": entry.text,
                    ],
                    expecting: .created)
                var edit: [String: Any] = ["tags": entry.tags]
                if let mood = entry.mood { edit["mood"] = mood }
                try await api.send(.patch, "/v1/entries/\(id)", token: me.accessToken, json: edit, expecting: .ok)
            }
            // And a recording on 3 May, and somebody else's entry on 1 May
            let recording = try await api.createUploadedEntry(me, audio: try await TestSpeech.m4a(TestSpeech.diarySentence))
            let heard = try await api.finishedTranscription(me, recording)
            try await api.send(
                .post, "/v1/entries", token: other.accessToken,
                json: [
                    "id": UUID().uuidString, "created_at": "2026-05-01T08:00:00Z", "tz": "UTC", "duration_s": 0, "kind": "text",
                    "text": "Somebody else met Siobhan.",
                ], expecting: .created)

            // When I ask for May in Paris
            let reply = try await api.send(
                .get, "/v1/me/insights?tz=Europe/Paris&from=2026-05-01&to=2026-05-31", token: me.accessToken, expecting: .ok)
            // Then each day with entries has the figures of its own entries, counted here from what was sent
            func words(_ text: String) -> Int { text.split { !$0.isLetter && !$0.isNumber && $0 != "'" }.count }
            let paris = TimeZone(identifier: "Europe/Paris")!
            var expected: [String: (entries: Int, seconds: Double, words: Int, moods: [Int])] = [:]
            for entry in typed {
                let date = LocalDay(try Date(entry.at, strategy: .iso8601), in: paris).description
                expected[date, default: (0, 0, 0, [])].entries += 1
                expected[date]!.words += words(entry.text)
                if let mood = entry.mood { expected[date]!.moods.append(mood) }
            }
            let recordingDate = LocalDay(try Date(try #require(heard["created_at"] as? String), strategy: .iso8601), in: paris)
                .description
            expected[recordingDate, default: (0, 0, 0, [])].entries += 1
            expected[recordingDate]!.seconds += try #require(heard["duration_s"] as? Double)
            expected[recordingDate]!.words += words(try #require(heard["transcript_clean"] as? String))

            let days = try #require(reply.json["days"] as? [[String: Any]])
            #expect(days.compactMap { $0["date"] as? String } == expected.keys.sorted(), "\(reply.text)")
            for day in days {
                let want = try #require(expected[day["date"] as! String])
                #expect(day["entries"] as? Int == want.entries && day["words"] as? Int == want.words, "\(day)")
                #expect(abs((day["seconds"] as? Double ?? -1) - want.seconds) < 0.001, "\(day)")
                let mood = want.moods.isEmpty ? nil : Int((Double(want.moods.reduce(0, +)) / Double(want.moods.count)).rounded())
                #expect(day["mood"] as? Int == mood, "\(day)")
            }
            // And the streak runs from 1 May to 3 May (today, the 4th, has none yet)
            #expect(reply.json["current_streak_days"] as? Int == 3 && reply.json["longest_streak_days"] as? Int == 3)
            // And Siobhan is the person mentioned most (in my two entries, not the other person's), Sandycove a place
            let mentions = try #require(reply.json["mentions"] as? [String: [[String: Any]]])
            #expect(
                mentions["people"]?.first?["text"] as? String == "Siobhan" && mentions["people"]?.first?["count"] as? Int == 2)
            #expect(mentions["places"]?.compactMap { $0["text"] as? String } == ["Paris", "Sandycove"])
            #expect(mentions["topics"]?.first?["text"] as? String == "sea" && mentions["topics"]?.first?["count"] as? Int == 2)

            // A span ends where it is asked to; a bad span is refused
            let first = try await api.send(
                .get, "/v1/me/insights?from=2026-05-01&to=2026-05-01", token: me.accessToken, expecting: .ok)
            // A year back from the first days of the calendar reaches year 0, and is still a year back.
            let earliest = try await api.send(.get, "/v1/me/insights?to=0001-03-01", token: me.accessToken, expecting: .ok).json
            #expect(earliest["from"] as? String == "0000-03-02", "\(earliest)")
            #expect((first.json["days"] as? [[String: Any]])?.count == 1)
            for bad in ["from=2026-05-02&to=2026-05-01", "from=2000-01-01&to=2026-05-01", "to=2026-13-01", "tz=Nowhere"] {
                #expect(try await api.send(.get, "/v1/me/insights?\(bad)", token: me.accessToken).status.code == 422, "\(bad)")
            }
        }
    }
}
