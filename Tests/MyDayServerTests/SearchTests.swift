import Foundation
import HTTPTypes
import MyDaySearch
import Testing

@testable import MyDayServer

/// `GET /v1/search` on both engines: relevance on a fixed diary, accents and scripts, phrases, prefixes and bad
/// syntax, filters and date phrases read in a fixed time zone on a fixed day, privacy, the index after every kind of
/// write, paging while entries arrive, and the migration of a diary that existed before search.
@Suite struct SearchTests {
    /// Wednesday 2026-03-18, 12:00 UTC: "today" for every search here.
    static let now = Date(timeIntervalSince1970: 1_773_835_200)
    /// How many matches the test server ranks one by one: few, so that a diary passes the bound with a few entries.
    static let rankedMatches = 12

    private func run(_ database: TestDatabase, _ body: @escaping @Sendable (Diary) async throws -> Void) async throws {
        let server = try await TestServer.make(database) {
            $0.clock = { Self.now }
            $0.searchRankedMatches = Self.rankedMatches
        }
        try await server.run { api in try await body(Diary(api: api, server: server, session: try await api.register())) }
    }

    /// One person's diary, and what they find in it.
    struct Diary {
        let api: APIClient
        let server: TestServer
        let session: APIClient.Session

        @discardableResult
        func add(
            _ text: String, at time: String, tz: String = "Europe/Berlin", title: String? = nil, tags: [String] = [],
            mood: Int? = nil, id: String = UUID().uuidString.lowercased()
        ) async throws -> String {
            try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: ["id": id, "created_at": time, "tz": tz, "kind": "text", "text": text], expecting: .created)
            var edit: [String: Any] = [:]
            edit["title"] = title
            edit["tags"] = tags.isEmpty ? nil : tags
            edit["mood"] = mood
            if !edit.isEmpty {
                try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: edit, expecting: .ok)
            }
            return id
        }

        /// The reply to a search in Berlin's time zone; `extra` adds parameters (already encoded).
        func search(_ q: String, _ extra: String = "") async throws -> APIClient.Reply {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let encoded = q.addingPercentEncoding(withAllowedCharacters: allowed)!
            let zone = extra.contains("tz=") ? "" : "&tz=Europe/Berlin"
            return try await api.send(.get, "/v1/search?q=\(encoded)\(zone)\(extra)", token: session.accessToken)
        }

        /// The ids of the hits, best first.
        func found(_ q: String, _ extra: String = "") async throws -> [String] {
            let reply = try await search(q, extra)
            #expect(reply.status == .ok, "\(q): \(reply.text)")
            return Self.ids(reply)
        }

        static func ids(_ reply: APIClient.Reply) -> [String] {
            ((reply.json["hits"] as? [[String: Any]]) ?? []).compactMap { ($0["entry"] as? [String: Any])?["id"] as? String }
        }
    }

    @Test(arguments: TestDatabase.available)
    func theBestMatchesComeFirst(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given a diary where the same words stand in titles, in tags and in transcripts
            let lakeTitle = try await diary.add(
                "Packed the car for the weekend.", at: "2026-03-01T09:00:00Z", title: "Lake house")
            let lakeTag = try await diary.add("Swimming, then reading on the jetty.", at: "2026-03-02T09:00:00Z", tags: ["lake"])
            let lakeThrice = try await diary.add(
                "The lake at dawn, the lake at noon, the lake again at dusk.", at: "2026-03-03T09:00:00Z")
            let lakeOnce = try await diary.add(
                "Drove past a lake on the way to work; a long ordinary day of meetings, emails, calls and more emails.",
                at: "2026-03-04T09:00:00Z")
            let market = try await diary.add(
                "We walked to the farmers market and bought bread and cheese.", at: "2026-03-05T09:00:00Z",
                title: "Market morning", tags: ["food"])
            let marked = try await diary.add("Marked the exams all evening.", at: "2026-03-06T09:00:00Z")
            let alexTitle = try await diary.add(
                "He wants to go to the lake in May.", at: "2026-02-10T09:00:00Z", title: "Call with Alex")
            let alexTag = try await diary.add("Dinner with friends.", at: "2026-02-11T09:00:00Z", tags: ["alex"])
            let alexText = try await diary.add(
                "Met Alex for coffee; Alex talked about the new job.", at: "2026-02-12T09:00:00Z")
            let bread = try await diary.add("Baked bread. The bread was good.", at: "2026-03-07T09:00:00Z")

            // Then each query finds its entries in this order: title, then tags, then the transcript, more matches
            // before fewer
            let expectations: [(String, [String])] = [
                ("lake", [lakeTitle, lakeTag, lakeThrice]),
                ("LAKE", [lakeTitle, lakeTag, lakeThrice]),
                ("lak", [lakeTitle, lakeTag, lakeThrice]),
                ("mark", [market, marked]),
                ("market", [market]),
                ("alex", [alexTitle, alexTag, alexText]),
                ("alex lake", [alexTitle]),
                ("bread", [bread, market]),
                ("farmers bread", [market]),
                (#""the lake at dawn""#, [lakeThrice]),
                ("what did I do with Alex", [alexTitle, alexTag, alexText]),
                ("exams", [marked]),
            ]
            for (query, expected) in expectations {
                let found = try await diary.found(query)
                #expect(Array(found.prefix(3)) == expected, "\(query)")
            }
            #expect(try await diary.found("lake").contains(lakeOnce))
            #expect(try await diary.found("lake").count == 5)
        }
    }

    @Test(arguments: TestDatabase.available)
    func accentsCaseAndOtherScriptsDoNotCount(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            let cafe = try await diary.add("Dinner at the Café Central, then home.", at: "2026-03-01T09:00:00Z")
            let uber = try await diary.add("Über den Wolken: ein Flug nach Berlin.", at: "2026-03-02T09:00:00Z")
            let russian = try await diary.add("Привет из Москвы, сегодня шёл снег.", at: "2026-03-03T09:00:00Z")
            let greek = try await diary.add("Καλημέρα! Σήμερα ήταν μια όμορφη μέρα.", at: "2026-03-04T09:00:00Z")
            for query in ["cafe", "CAFÉ", "café central", "Cafe"] { #expect(try await diary.found(query) == [cafe], "\(query)") }
            for query in ["uber", "über", "ÜBER den"] { #expect(try await diary.found(query) == [uber], "\(query)") }
            for query in ["привет", "ПРИВЕТ", "москв", "снег"] { #expect(try await diary.found(query) == [russian], "\(query)") }
            for query in ["καλημέρα", "ΣΉΜΕΡΑ"] { #expect(try await diary.found(query) == [greek], "\(query)") }

            // And the match is marked where it stands in the text, in UTF-16 offsets
            let reply = try await diary.search("cafe")
            let highlight = try #require(
                ((reply.json["hits"] as? [[String: Any]])?.first?["highlights"] as? [[String: Any]])?.first)
            #expect(highlight["field"] as? String == "text")
            let text = try #require(highlight["text"] as? String)
            let match = try #require((highlight["matches"] as? [[String: Int]])?.first)
            let utf16 = Array(text.utf16)
            #expect(String(decoding: utf16[match["start"]!..<(match["start"]! + match["length"]!)], as: UTF16.self) == "Café")
        }
    }

    @Test(arguments: TestDatabase.available)
    func phrasesPrefixesAndAnySyntaxAsWords(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            let park = try await diary.add("Went to the park after work and sat by the lake.", at: "2026-03-01T09:00:00Z")
            let closed = try await diary.add("The park was closed, so we went to the lake.", at: "2026-03-02T09:00:00Z")
            #expect(try await diary.found(#""the park was""#) == [closed])
            #expect(try await diary.found(#""the lake""#).sorted() == [park, closed].sorted())
            #expect(try await diary.found(#""lake the""#).isEmpty)
            #expect(try await diary.found("wor").contains(park))
            // Operators and symbols of FTS5 and tsquery are words or nothing; never an error
            for query in [
                "park OR", "park*", #""park"#, "(((park", "-park", "park AND", "park & lake", "park | lake", "'park'",
                "park:*", "!park", "park <-> lake", "{park}", "^park", "park)", "park\\", "park's",
            ] {
                let reply = try await diary.search(query)
                #expect(reply.status == .ok, "\(query): \(reply.text)")
                #expect(Set(Diary.ids(reply)) == [park, closed], "\(query)")
            }
            // Words an operator would have been are words that must appear too
            for query in ["NOT park", "title:park", "NEAR(park)"] {
                let reply = try await diary.search(query)
                #expect(reply.status == .ok && Diary.ids(reply).isEmpty, "\(query): \(reply.text)")
            }
            #expect(try await diary.search(String(repeating: "x", count: 201)).status == .badRequest)
        }
    }

    @Test(arguments: TestDatabase.available)
    func filtersAndDatePhrasesCombine(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given entries around Wednesday 2026-03-18 in Berlin, and two whose own time zone puts them on another day
            let today = try await diary.add("Walk by the river.", at: "2026-03-18T08:00:00Z", tags: ["walk"], mood: 4)
            let lateYesterdayUTC = try await diary.add("Night walk.", at: "2026-03-17T23:30:00Z")  // Berlin: the 18th
            let yesterday = try await diary.add("Walk in the rain.", at: "2026-03-17T10:00:00Z", tags: ["Walk", "rain"], mood: 2)
            let californiaYesterday = try await diary.add(
                "Walk on the beach.", at: "2026-03-18T03:00:00Z", tz: "America/Los_Angeles")  // there: the 17th
            let lastWeek = try await diary.add("Walk with Alex.", at: "2026-03-12T10:00:00Z", tags: ["walk"])
            let lastMonth = try await diary.add("Long walk with Alex.", at: "2026-02-14T10:00:00Z")
            let lastMay = try await diary.add("Walk in May.", at: "2025-05-20T10:00:00Z")
            let recording = try await diary.api.createUploadedEntry(diary.session)

            #expect(Set(try await diary.found("walk today")) == [today, lateYesterdayUTC])
            #expect(Set(try await diary.found("walk yesterday")) == [yesterday, californiaYesterday])
            #expect(Set(try await diary.found("yesterday")) == [yesterday, californiaYesterday])
            #expect(try await diary.found("walk last week") == [lastWeek])
            #expect(try await diary.found("what did I do with Alex last month?") == [lastMonth])
            #expect(try await diary.found("walk in May") == [lastMay])
            #expect(try await diary.found("alex", "&from=2026-03-01&to=2026-03-31") == [lastWeek])
            #expect(Set(try await diary.found("", "&from=2026-03-17&to=2026-03-17")) == [yesterday, californiaYesterday])
            #expect(Set(try await diary.found("", "&tag=walk")) == [today, yesterday, lastWeek])
            #expect(try await diary.found("", "&tag=walk&tag=rain") == [yesterday])
            #expect(Set(try await diary.found("walk", "&mood=4&mood=2")) == [today, yesterday])
            #expect(try await diary.found("", "&kind=audio") == [recording.uuidString.lowercased()])
            #expect(try await diary.found("", "&status=uploaded") == [recording.uuidString.lowercased()])
            #expect(try await diary.found("walk", "&mood=4&from=2026-03-18") == [today])

            // And the answer says how the words were read
            let reply = try await diary.search("walk last week")
            let interpreted = try #require(reply.json["interpreted"] as? [String: Any])
            #expect(interpreted["words"] as? [String] == ["walk"] && interpreted["date_phrase"] as? String == "last week")
            #expect(interpreted["from"] as? String == "2026-03-09" && interpreted["to"] as? String == "2026-03-15")
            // Unless told to take them as words
            #expect(try await diary.found("yesterday", "&read_dates=false").isEmpty)
            // Without words, newest first
            #expect(try await diary.found("", "&tag=walk") == [today, yesterday, lastWeek])

            // Bad filters are clear errors
            for extra in [
                "&from=2026-02-30", "&from=yesterday", "&from=2026-03-18&to=2026-03-01", "&tz=Mars/Olympus", "&cursor=abc",
            ] {
                let bad = try await diary.search("walk", extra)
                #expect(bad.status == .unprocessableContent && bad.errorMessage != nil, "\(extra): \(bad.text)")
            }
            // Values outside the API document's bounds are refused, as the document says, never read as no filter
            for extra in [
                "&limit=0", "&limit=101", "&tag=", "&tag=walk&tag=", "&tag=" + String(repeating: "t", count: 51),
                "&mood=0", "&mood=6", "&mood=4&mood=-1", "&kind=video", "&status=done", "&read_dates=maybe",
            ] {
                let bad = try await diary.search("walk", extra)
                #expect(bad.status == .badRequest && bad.errorMessage != nil, "\(extra): \(bad.text)")
            }
            // A tag of spaces alone is well-formed but names no tag
            for spaces in ["%20", "%C2%85", "%09%E3%80%80"] {
                #expect(try await diary.search("walk", "&tag=" + spaces).status == .unprocessableContent)
            }
            // A word of 200 scalars is within bounds; 201 (however few characters they draw) is not
            #expect(try await diary.search(String(repeating: "e\u{301}", count: 100)).status == .ok)
            #expect(try await diary.search(String(repeating: "e\u{301}", count: 100) + "e").status == .badRequest)
            #expect(try await diary.search("walk", "&tag=" + String(repeating: "t", count: 50)).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.available)
    func anotherPersonsAndDeletedEntriesAreNeverFound(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            let kept = try await diary.add("The secret garden.", at: "2026-03-01T09:00:00Z")
            let deleted = try await diary.add("The secret tunnel.", at: "2026-03-02T09:00:00Z")
            try await diary.api.send(.delete, "/v1/entries/\(deleted)", token: diary.session.accessToken, expecting: .noContent)
            let other = Diary(api: diary.api, server: diary.server, session: try await diary.api.register())
            let theirs = try await other.add("Their secret garden.", at: "2026-03-03T09:00:00Z", title: "secret")
            #expect(try await diary.found("secret") == [kept])
            #expect(try await diary.found("tunnel").isEmpty)
            #expect(try await other.found("secret") == [theirs])
            #expect(try await diary.found("", "&from=2026-01-01") == [kept])
        }
    }

    @Test(arguments: TestDatabase.available)
    func theIndexFollowsEditsAndRetranscription(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given a typed entry, found by its words
            let id = try await diary.add("Morning run in the fog.", at: "2026-03-01T09:00:00Z")
            #expect(try await diary.found("fog") == [id])
            // When its text, title and tags are edited, the old words are gone and the new ones found
            try await diary.api.send(
                .patch, "/v1/entries/\(id)", token: diary.session.accessToken,
                json: ["text": "Evening swim in the sea.", "title": "Swim", "tags": ["summer"]], expecting: .ok)
            #expect(try await diary.found("fog").isEmpty)
            for word in ["sea", "swim", "summer"] { #expect(try await diary.found(word) == [id], "\(word)") }

            // Given a recording transcribed, then transcribed again with other words
            let recording = try await diary.api.createUploadedEntry(diary.session)
            let userID = try #require(UUID(uuidString: diary.session.userID))
            for words in ["Thunder over the hills.", "Sunshine over the valley."] {
                try await diary.server.withDatabase { driver in
                    try await driver.write { db in
                        try await EntryStore.storeTranscript(
                            Transcript(raw: words, clean: words, words: [], language: "en", noSpeech: false, reviewReason: nil),
                            entryID: recording, userID: userID, in: db)
                    }
                }
            }
            // Then only the latest words find it
            #expect(try await diary.found("thunder").isEmpty)
            #expect(try await diary.found("valley") == [recording.uuidString.lowercased()])
        }
    }

    @Test(arguments: TestDatabase.available)
    func pagesStayStableWhileEntriesArrive(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given 25 entries with the word, read 10 at a time
            var all: [String] = []
            for day in 1...25 {
                all.append(try await diary.add("Notes of day \(day).", at: String(format: "2026-01-%02dT09:00:00Z", day)))
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let extra = "&limit=10" + (cursor.map { "&cursor=\($0)" } ?? "")
                let reply = try await diary.search("notes", extra)
                seen += Diary.ids(reply)
                cursor = reply.json["next_cursor"] as? String
                #expect((reply.json["has_more"] as? Bool) == (cursor != nil))
                // When entries arrive between pages, and one that was seen is edited
                if seen.count == 10 {
                    try await diary.add("Notes that came late.", at: "2026-01-15T12:00:00Z")
                    try await diary.add("More notes, written today.", at: "2026-03-18T09:00:00Z")
                }
            } while cursor != nil
            // Then every entry of the first page's moment came once, and none that came after
            #expect(seen.count == 25 && Set(seen) == Set(all))
            // And a new search sees them
            #expect(try await diary.found("notes", "&limit=100").count == 27)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWordInMostRecentEntriesIsCountedExactly(_ database: TestDatabase) async throws {
        // Given a server that ranks up to 40 matches, and a diary whose 36 newest entries of 70 hold "kite", the oldest
        // of them three times: a word in most recent entries, under the bound in all
        let server = try await TestServer.make(database) {
            $0.clock = { Self.now }
            $0.searchRankedMatches = 40
        }
        try await server.run { api in
            let diary = Diary(api: api, server: server, session: try await api.register())
            for index in 0..<34 {
                try await diary.add("Rain on the roof \(index).", at: "2026-01-01T10:\(String(format: "%02d", index)):00Z")
            }
            let favourite = try await diary.add("A kite, a red kite, my kite.", at: "2026-02-01T09:00:00Z")
            var kites: [String] = []
            for index in 0..<35 {
                kites.append(
                    try await diary.add("Flew the kite \(index).", at: "2026-02-02T10:\(String(format: "%02d", index)):00Z"))
            }
            // When searching for it, 36 matches
            // Then they are ranked: the entry that says it most comes first, then the others newest first
            #expect(try await diary.found("kite", "&limit=50") == [favourite] + kites.reversed())

            // When five more entries hold it, 41 matches, more than are ranked
            for index in 0..<5 {
                kites.append(try await diary.add("Flew the kite again \(index).", at: "2026-02-03T10:0\(index):00Z"))
            }
            // Then they come newest first
            #expect(try await diary.found("kite", "&limit=50") == kites.reversed() + [favourite])
        }
    }

    @Test(arguments: TestDatabase.available)
    func manyMatchesPutTitlesAndTagsFirstThenTheNewest(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given more entries with the word than are ranked one by one, the oldest two naming it in a title or tag
            let titled = try await diary.add("Rain again.", at: "2025-01-01T09:00:00Z", title: "Harbour walk")
            let tagged = try await diary.add("Rain again.", at: "2025-01-02T09:00:00Z", tags: ["harbour"])
            var others: [String] = []
            for index in 0..<(Self.rankedMatches + 5) {
                let minute = String(format: "%02d", index % 60)
                others.append(
                    try await diary.add(
                        "Walked to the harbour number \(index).",
                        at: "2026-01-\(String(format: "%02d", index / 60 + 1))T10:\(minute):00Z"))
            }
            // When they are read a page at a time
            @Sendable func everyHit(_ q: String = "harbour") async throws -> [String] {
                var seen: [String] = []
                var cursor: String?
                repeat {
                    let reply = try await diary.search(q, "&limit=4" + (cursor.map { "&cursor=\($0)" } ?? ""))
                    #expect(reply.status == .ok)
                    seen += Diary.ids(reply)
                    cursor = reply.json["next_cursor"] as? String
                } while cursor != nil
                return seen
            }
            let seen = try await everyHit()
            // Then the title and the tag come first, then the rest, each once, the most recently written first
            #expect(Array(seen.prefix(2)) == [titled, tagged])
            #expect(seen.count == others.count + 2 && Set(seen) == Set(others + [titled, tagged]))
            #expect(Array(seen.dropFirst(2)) == others.reversed())
            // And the word's beginning, which no entry holds whole, finds the same in the same order
            #expect(try await everyHit("harb") == seen)
            // And a word that is in no title or tag finds them newest first, each once
            #expect(try await everyHit("number") == others.reversed())

            // When the title is taken away, the tagged entry deleted, and one of the others given the word as a tag
            let token = diary.session.accessToken
            try await diary.api.send(.patch, "/v1/entries/\(titled)", token: token, json: ["title": ""], expecting: .ok)
            try await diary.api.send(.delete, "/v1/entries/\(tagged)", token: token, expecting: .noContent)
            try await diary.api.send(
                .patch, "/v1/entries/\(others[7])", token: token, json: ["tags": ["harbour"]], expecting: .ok)

            // Then the newly tagged one comes first, then the others newest first; the two are found no more
            #expect(try await everyHit() == [others[7]] + others.reversed().filter { $0 != others[7] })
        }
    }

    @Test(arguments: TestDatabase.available)
    func asManyMatchesAsAreRankedStayRankedBesideDeletedAndOtherPeoplesEntries(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given exactly as many live matches as are ranked one by one, the oldest saying the word twice
            let twice = try await diary.add("Harbour, and the harbour again.", at: "2025-01-01T09:00:00Z")
            for index in 1..<Self.rankedMatches {
                try await diary.add("Walked to the harbour, day \(index).", at: "2026-01-01T09:00:00Z")
            }
            // and one more that was deleted, and another person's entries with the word
            let deleted = try await diary.add("The harbour, deleted.", at: "2026-02-01T09:00:00Z")
            try await diary.api.send(.delete, "/v1/entries/\(deleted)", token: diary.session.accessToken, expecting: .noContent)
            let other = try await diary.api.register()
            for _ in 0..<3 {
                try await diary.api.send(
                    .post, "/v1/entries", token: other.accessToken,
                    json: [
                        "id": UUID().uuidString.lowercased(), "created_at": "2026-03-01T09:00:00Z", "tz": "UTC", "kind": "text",
                        "text": "Harbour.",
                    ], expecting: .created)
            }
            // When the word is searched
            let hits = try await diary.found("harbour", "&limit=5")
            // Then the matches are ranked (the twice-said first), not taken for too many and put newest first
            #expect(hits.first == twice)
        }
    }

    @Test(arguments: TestDatabase.available)
    func moreTitleAndTagMatchesThanAreRankedComeNewestFirstThenTheRest(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given two entries with the word in their text alone, then more tagged with it than are ranked one by one,
            // the oldest of them titled with it too (ranked, it would come first)
            let untagged = [
                try await diary.add("Walked to the harbour.", at: "2025-01-01T09:00:00Z"),
                try await diary.add("Harbour again.", at: "2025-01-02T09:00:00Z"),
            ]
            var tagged: [String] = []
            for index in 0..<(Self.rankedMatches + 3) {
                let minute = String(format: "%02d", index % 60)
                tagged.append(
                    try await diary.add(
                        "Entry \(index).", at: "2026-01-\(String(format: "%02d", index / 60 + 1))T10:\(minute):00Z",
                        title: index == 0 ? "Harbour" : nil, tags: ["harbour"]))
            }
            // When every hit is read, a page of 5 at a time
            var seen: [String] = []
            var cursor: String?
            repeat {
                let reply = try await diary.search("harbour", "&limit=5" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(reply.status == .ok)
                seen += Diary.ids(reply)
                cursor = reply.json["next_cursor"] as? String
            } while cursor != nil
            // Then the tagged come first, newest first, then the two others, newest first, each once
            #expect(seen == tagged.reversed() + untagged.reversed())
        }
    }

    @Test func queryStringValuesAreReadAsFoundationReadsThem() {
        // Given values with spaces as "+", escapes of ASCII and of UTF-8, cut escapes, bad hex and bytes that are no UTF-8
        let values = [
            "lake+again", "caf%C3%A9", "%E2%82%AC5", "100%25", "a%2Bb", "%", "%4", "%zz", "%C3", "%FF%FE", "", "plain",
            "%e2%82%ac", "+%20+", "%00",
        ]
        for value in values {
            // When they are decoded, then the text is Foundation's, "+" being a space, and nil where Foundation has none
            let expected = String(value.map { $0 == "+" ? " " : $0 }).removingPercentEncoding
            #expect(SearchResponder<MyDayRequestContext>.decode(Substring(value)) == expected, "\(value)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func theAnswerIsTheseBytes(_ database: TestDatabase) async throws {
        try await run(database) { diary in
            // Given entries whose fields need every kind of escape, matched in titles, tags and transcripts, with fixed
            // ids and times (the API refuses control characters other than tab and line breaks, so they are left out)
            for (index, awkward) in EntryJSONTests.awkward.enumerated() {
                let text = String(
                    String.UnicodeScalarView(
                        awkward.unicodeScalars.filter { $0.properties.generalCategory != .control || $0 == "\t" }))
                try await diary.add(
                    "Lake \(text) and the lake again, \"quoted\" / slashed.", at: "2026-03-1\(index % 8)T09:00:00Z",
                    title: index % 2 == 0 ? "Lake \(text)" : nil,
                    tags: index % 3 == 0 ? ["lake", text.isEmpty ? "x" : text] : [],
                    mood: index % 5 + 1, id: "a0000000-0000-4000-8000-00000000000\(index)")
            }
            try await diary.server.withDatabase { driver in
                try await driver.write { db in
                    try await db.raw(
                        "UPDATE entries SET updated_at = 1773835200123 WHERE user_id = \(bind: diary.session.userID)"
                    ).run()
                }
            }
            // When searching as a client does: by filters only (newest first), and for words each of one entry (so that
            // the engines' different scores order nothing), from a fixed moment so that the cursors are fixed too (a
            // first page's cursor as the server writes one for 2100-01-01, `v1.0.4102444800000`)
            var answers: [String] = []
            for (query, extra) in [
                ("", "&mood=1&mood=2&limit=3"), ("", "&tag=lake&kind=text&status=transcribed"), ("backslash", ""),
                ("café", ""), (#""line separator""#, ""), ("controls last week", "&read_dates=true"),
                ("nothing matches this", ""),
            ] {
                let reply = try await diary.search(query, extra + "&cursor=djEuMC40MTAyNDQ0ODAwMDAw")
                #expect(reply.status == .ok, "\(query): \(reply.text)")
                answers.append(reply.text)
            }
            // Then the answers are these bytes
            #expect(answers.count == Self.answers.count)
            for (answer, expected) in zip(answers, Self.answers) { #expect(answer == expected) }
            // And "+" in a query string is a space, as forms send it
            #expect(
                try await diary.api.send(.get, "/v1/search?q=lake+again", token: diary.session.accessToken).json["interpreted"]
                    .map { ($0 as? [String: Any])?["words"] as? [String] } == ["lake", "again"])
        }
    }

    /// The answers to the searches above, in order, written out: what the generated types give through `JSONEncoder`
    /// with the server's settings (sorted keys, slashes unescaped, dates with milliseconds).
    static let answers = [
        #"""
        {"has_more":true,"hits":[{"entry":{"created_at":"2026-03-16T09:00:00.000Z","duration_s":0\#
        ,"filename":"2026-03-16_10-00-00_a0000000.txt","id":"a0000000-0000-4000-8000-000000000006","kind":"text","mood":2\#
        ,"needs_review":false,"no_speech":false,"status":"transcribed","tags":["lake","<script>alert(1)</script> & ' `"]\#
        ,"title":"Lake <script>alert(1)</script> & ' `"\#
        ,"transcript_clean":"Lake <script>alert(1)</script> & ' ` and the lake again, \"quoted\" / slashed."\#
        ,"tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[]},{"entry":\#
        {"created_at":"2026-03-15T09:00:00.000Z","duration_s":0,"filename":"2026-03-15_10-00-00_a0000000.txt"\#
        ,"id":"a0000000-0000-4000-8000-000000000005","kind":"text","mood":1,"needs_review":false,"no_speech":false,"status":"transcribed","tags":[]\#
        ,"transcript_clean":"Lake  and the lake again, \"quoted\" / slashed.","tz":"Europe/Berlin"\#
        ,"updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[]},{"entry":{"created_at":"2026-03-11T09:00:00.000Z"\#
        ,"duration_s":0,"filename":"2026-03-11_10-00-00_a0000000.txt","id":"a0000000-0000-4000-8000-000000000001"\#
        ,"kind":"text","mood":2,"needs_review":false,"no_speech":false,"status":"transcribed","tags":[]\#
        ,"transcript_clean":"Lake quote \" backslash \\ slash / done and the lake again, \"quoted\" / slashed."\#
        ,"tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[]}],"interpreted":{"phrases":[]\#
        ,"words":[]},"next_cursor":"djEuMy40MTAyNDQ0ODAwMDAw"}
        """#,
        #"""
        {"has_more":false,"hits":[{"entry":{"created_at":"2026-03-16T09:00:00.000Z","duration_s":0\#
        ,"filename":"2026-03-16_10-00-00_a0000000.txt","id":"a0000000-0000-4000-8000-000000000006","kind":"text","mood":2\#
        ,"needs_review":false,"no_speech":false,"status":"transcribed","tags":["lake","<script>alert(1)</script> & ' `"]\#
        ,"title":"Lake <script>alert(1)</script> & ' `"\#
        ,"transcript_clean":"Lake <script>alert(1)</script> & ' ` and the lake again, \"quoted\" / slashed."\#
        ,"tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[]},{"entry":\#
        {"created_at":"2026-03-13T09:00:00.000Z","duration_s":0,"filename":"2026-03-13_10-00-00_a0000000.txt"\#
        ,"id":"a0000000-0000-4000-8000-000000000003","kind":"text","mood":4,"needs_review":false,"no_speech":false,"status":"transcribed"\#
        ,"tags":["lake","delete , line separator \#u{2028}, paragraph"]\#
        ,"transcript_clean":"Lake delete , line separator \#u{2028}, paragraph \#u{2029} and the lake again, \"quoted\" / slas\#
        hed.","tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[]},{"entry":\#
        {"created_at":"2026-03-10T09:00:00.000Z","duration_s":0,"filename":"2026-03-10_10-00-00_a0000000.txt"\#
        ,"id":"a0000000-0000-4000-8000-000000000000","kind":"text","mood":1,"needs_review":false,"no_speech":false,"status":"transcribed"\#
        ,"tags":["lake","plain"],"title":"Lake plain"\#
        ,"transcript_clean":"Lake plain and the lake again, \"quoted\" / slashed.","tz":"Europe/Berlin"\#
        ,"updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[]}],"interpreted":{"phrases":[],"words":[]}}
        """#,
        #"""
        {"has_more":false,"hits":[{"entry":{"created_at":"2026-03-11T09:00:00.000Z","duration_s":0\#
        ,"filename":"2026-03-11_10-00-00_a0000000.txt","id":"a0000000-0000-4000-8000-000000000001","kind":"text","mood":2\#
        ,"needs_review":false,"no_speech":false,"status":"transcribed","tags":[]\#
        ,"transcript_clean":"Lake quote \" backslash \\ slash / done and the lake again, \"quoted\" / slashed."\#
        ,"tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[{"field":"text","matches":[{"length":9\#
        ,"start":13}],"text":"Lake quote \" backslash \\ slash / done and the lake again, \"quoted\" / slashed."}]}]\#
        ,"interpreted":{"phrases":[],"words":["backslash"]}}
        """#,
        #"""
        {"has_more":false,"hits":[{"entry":{"created_at":"2026-03-14T09:00:00.000Z","duration_s":0\#
        ,"filename":"2026-03-14_10-00-00_a0000000.txt","id":"a0000000-0000-4000-8000-000000000004","kind":"text","mood":5\#
        ,"needs_review":false,"no_speech":false,"status":"transcribed","tags":[],"title":"Lake Café, Über, Привет, 東京, 😀👩\#u{200D}👩\#u{200D}👧"\#
        ,"transcript_clean":"Lake Café, Über, Привет, 東京, 😀👩\#u{200D}👩\#u{200D}👧 and the lake again, \"quoted\" / slashed."\#
        ,"tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[{"field":"title","matches":[{"length":4\#
        ,"start":5}],"text":"Lake Café, Über, Привет, 東京, 😀👩\#u{200D}👩\#u{200D}👧"},{"field":"text","matches":[{"length":4\#
        ,"start":5}]\#
        ,"text":"Lake Café, Über, Привет, 東京, 😀👩\#u{200D}👩\#u{200D}👧 and the lake again, \"quoted\" / slashed."}]}]\#
        ,"interpreted":{"phrases":[],"words":["café"]}}
        """#,
        #"""
        {"has_more":false,"hits":[{"entry":{"created_at":"2026-03-13T09:00:00.000Z","duration_s":0\#
        ,"filename":"2026-03-13_10-00-00_a0000000.txt","id":"a0000000-0000-4000-8000-000000000003","kind":"text","mood":4\#
        ,"needs_review":false,"no_speech":false,"status":"transcribed","tags":["lake","delete , line separator \#u{2028}, paragraph"]\#
        ,"transcript_clean":"Lake delete , line separator \#u{2028}, paragraph \#u{2029} and the lake again, \"quoted\" / slas\#
        hed.","tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[{"field":"tags","matches":[\#
        {"length":4,"start":15},{"length":9,"start":20}],"text":"lake, delete , line separator \#u{2028}, paragraph"},\#
        {"field":"text","matches":[{"length":4,"start":14},{"length":9,"start":19}]\#
        ,"text":"Lake delete , line separator \#u{2028}, paragraph \#u{2029} and the lake again, \"quoted\" / slashed."}]}]\#
        ,"interpreted":{"phrases":[["line","separator"]],"words":[]}}
        """#,
        #"""
        {"has_more":false,"hits":[{"entry":{"created_at":"2026-03-12T09:00:00.000Z","duration_s":0\#
        ,"filename":"2026-03-12_10-00-00_a0000000.txt","id":"a0000000-0000-4000-8000-000000000002","kind":"text","mood":3\#
        ,"needs_review":false,"no_speech":false,"status":"transcribed","tags":[],"title":"Lake controls \t end"\#
        ,"transcript_clean":"Lake controls \t end and the lake again, \"quoted\" / slashed.","tz":"Europe/Berlin"\#
        ,"updated_at":"2026-03-18T12:00:00.123Z"},"highlights":[{"field":"title","matches":[{"length":8,"start":5}]\#
        ,"text":"Lake controls \t end"},{"field":"text","matches":[{"length":8,"start":5}]\#
        ,"text":"Lake controls \t end and the lake again, \"quoted\" / slashed."}]}],"interpreted":{"date_phrase":"last week"\#
        ,"from":"2026-03-09","phrases":[],"to":"2026-03-15","words":["controls"]}}
        """#,
        #"""
        {"has_more":false,"hits":[],"interpreted":{"phrases":[],"words":["nothing","matches","this"]}}
        """#,

    ]

    @Test(arguments: TestDatabase.available)
    func migratingADiaryFromBeforeSearchIndexesIt(_ database: TestDatabase) async throws {
        var configuration = try await database.freshConfiguration()
        configuration.clock = { Self.now }
        let userID = UUID()
        let entryID = UUID()
        try await DatabaseDriverFactory.withDriver(configuration: configuration, logger: .init(label: "test")) { driver in
            // Given a database at the version before search, with a user and an entry recorded late on the 17th in
            // New York (the 18th in UTC)
            _ = try await Migrator.apply(Migrator.all.filter { $0.version < SearchIndex.migration.version }, to: driver)
            try await driver.write { db in
                try await db.raw(
                    """
                    INSERT INTO users (id, email, created_at) VALUES (\(bind: userID.lowercased), 'old@example.com', 0)
                    """
                ).run()
                try await db.raw(
                    """
                    INSERT INTO entries (id, user_id, created_at, tz, duration_s, kind, status, filename, title, tags,
                        transcript_clean, change_seq, updated_at)
                    VALUES (\(bind: entryID.lowercased), \(bind: userID.lowercased), 1773802800000, 'America/New_York', 0,
                        'text', 'transcribed', 'x.txt', 'Old times', '["archive"]', 'A winter evening by the fire.', 1, 0)
                    """
                ).run()
            }
            // When the server migrates it
            #expect(
                try await Migrator.migrate(driver)
                    == Migrator.all.map(\.version).filter { $0 >= SearchIndex.migration.version })
            // Then the entry is in the index, and its day is its own time zone's
            let store = EntryStore(driver: driver)
            for words in ["fire", "old times", "archive"] {
                let found = try await store.search(
                    EntrySearch(query: SearchQuery(parsing: words)), userID: userID, asOf: .max, offset: 0, limit: 10)
                #expect(found.entries.map(\.id) == [entryID], "\(words)")
            }
            let onTheDay = try await store.search(
                EntrySearch(query: SearchQuery(parsing: ""), from: LocalDay(year: 2026, month: 3, day: 17)), userID: userID,
                asOf: .max, offset: 0, limit: 10)
            #expect(onTheDay.entries.map(\.id) == [entryID])
        }
    }
}
