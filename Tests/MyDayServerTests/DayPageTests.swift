import Foundation
import MyDaySpeech
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// `GET /v1/days/{date}`: a day's entries, tags and mood, and a digest in its own words.
@Suite struct DayPageTests {
    private func heard(_ text: String, from start: Double = 0) -> [RecognizedWord] {
        text.split(separator: " ").enumerated().map { index, word in
            RecognizedWord(word: String(word), start: start + Double(index) * 0.5, end: start + Double(index) * 0.5 + 0.4)
        }
    }

    @Test func theDigestIsVerbatimSentencesThatCoverTheDayAndSayWhereTheyBegin() throws {
        // Given a day of a recording and a typed note
        let walk = "Um, we walked to the lake. Siobhan brought her new kayak and we paddled to the island. It was cold."
        let note = "Evening. Finished the report for Przemek and sent it before the deadline."
        let recording = UUID()
        let typed = UUID()
        let sources = [
            DayDigest.Source(
                entryID: recording, createdAt: Date(timeIntervalSince1970: 0), text: walk, heard: heard(walk), isAudio: true),
            DayDigest.Source(entryID: typed, createdAt: Date(timeIntervalSince1970: 60), text: note, heard: [], isAudio: false),
        ]
        // When the digest is made
        let digest = DayDigest.sentences(of: sources)
        // Then it has one to three sentences, each a sentence of its entry word for word, from both entries, in order
        #expect((1...3).contains(digest.count))
        for sentence in digest {
            let text = try #require(sources.first { $0.entryID == sentence.entryID }?.text)
            #expect(DayDigest.split(text).contains(sentence.text), "\(sentence.text)")
        }
        #expect(Set(digest.map(\.entryID)) == [recording, typed])
        #expect(digest.first?.entryID == recording)
        // And a recorded sentence begins where its first word was said (word n at n × 0.5 s); a typed one has no time
        for sentence in digest where sentence.entryID == recording {
            let before = try #require(walk.range(of: sentence.text)).lowerBound
            let index = walk[..<before].split(separator: " ").count
            #expect(sentence.start == Double(index) * 0.5, "\(sentence)")
        }
        #expect(digest.first { $0.entryID == typed }?.start == nil)
        // The sentences that carry the most go in: the names, the kayak, the report
        #expect(digest.contains { $0.text.contains("Siobhan") } && digest.contains { $0.text.contains("Przemek") })
    }

    @Test func sentencesAreCutAtEndMarksAndParagraphsAndKeptVerbatim() {
        #expect(
            DayDigest.split("It rained. Then? Sun!\n\nA new paragraph without an end\n\nLast one.")
                == ["It rained.", "Then?", "Sun!", "A new paragraph without an end", "Last one."])
        #expect(DayDigest.split("Mr. Smith came at 3.30 today.") == ["Mr.", "Smith came at 3.30 today."])
        #expect(DayDigest.sentences(of: []).isEmpty)
    }

    @Test(arguments: TestDatabase.available)
    func theDayPageHoldsTheOwnersEntriesOfThatDayOnly(_ database: TestDatabase) async throws {
        try await TestServer.make(database) { $0.workers = 1 }.run { api in
            let me = try await api.register()
            let other = try await api.register()
            // Given my recording and a typed entry on 1 May (Paris), a typed entry on 2 May, and someone else's on 1 May
            let spoken: [(String, Double, Double)] = [
                ("Today", 0.0, 0.3), ("we", 0.4, 0.5), ("rowed", 0.6, 0.9), ("across", 1.0, 1.3), ("the", 1.4, 1.5),
                ("harbour", 1.6, 2.0), ("with", 2.1, 2.3), ("Siobhan.", 2.4, 2.9),
            ]
            let recording = try await api.createAndUpload(me, try await TestSpeech.m4a(TestSpeech.diarySentence))
            try await api.send(
                .post, "/v1/entries/\(recording)/complete", token: me.accessToken,
                json: DeviceTranscriptTests.transcript(spoken), expecting: .ok)
            _ = try await api.finishedTranscription(me, recording)
            try await api.send(
                .patch, "/v1/entries/\(recording)", token: me.accessToken, json: ["tags": ["sea", "friends"], "mood": 4],
                expecting: .ok)
            func typed(_ session: APIClient.Session, _ at: String, _ text: String, tags: [String] = [], mood: Int? = nil)
                async throws -> String
            {
                let id = UUID().uuidString.lowercased()
                try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: ["id": id, "created_at": at, "tz": "Europe/Paris", "duration_s": 0, "kind": "text", "text": text],
                    expecting: .created)
                var edit: [String: Any] = ["tags": tags]
                if let mood { edit["mood"] = mood }
                try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: edit, expecting: .ok)
                return id
            }
            let note = try await typed(
                me, "2026-05-01T19:00:00Z", "Wrote the long letter to Przemek tonight.", tags: ["sea"], mood: 1)
            _ = try await typed(me, "2026-05-01T22:30:00Z", "After midnight in Paris: the second of May.")
            _ = try await typed(other, "2026-05-01T12:00:00Z", "Somebody else's day entirely.")

            // When I open 1 May
            let reply = try await api.send(.get, "/v1/days/2026-05-01?tz=Europe/Paris", token: me.accessToken, expecting: .ok)
            let page = reply.json
            // Then it holds my two entries of that day, oldest first, their tags by use and their mean mood
            let ids = (page["entries"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == [recording.uuidString.lowercased(), note], "\(reply.text)")
            #expect(page["tags"] as? [String] == ["sea", "friends"])
            #expect(
                page["mood"] as? Int == 3 && page["date"] as? String == "2026-05-01" && page["tz"] as? String == "Europe/Paris")
            // And a digest of their own sentences, the recorded one with the time it begins
            let digest = try #require(page["digest"] as? [[String: Any]])
            #expect(!digest.isEmpty && digest.count <= 3)
            #expect(!reply.text.contains("Somebody") && !reply.text.contains("second of May"))
            let said = try #require(digest.first { $0["entry_id"] as? String == recording.uuidString.lowercased() })
            #expect((said["text"] as? String)?.hasPrefix("Today we rowed") == true, "\(said)")
            #expect(said["start"] as? Double == 0.0)
            let written = try #require(digest.first { $0["entry_id"] as? String == note })
            #expect(written["text"] as? String == "Wrote the long letter to Przemek tonight." && written["start"] == nil)

            // An empty day is empty; a day that does not exist is refused
            let empty = try await api.send(.get, "/v1/days/2026-06-01", token: me.accessToken, expecting: .ok).json
            #expect((empty["entries"] as? [Any])?.isEmpty == true && (empty["digest"] as? [Any])?.isEmpty == true)
            for bad in ["2026-02-30", "yesterday", "2026-5-1"] {
                let status = try await api.send(.get, "/v1/days/\(bad)", token: me.accessToken).status
                #expect([400, 422].contains(status.code), "\(bad): \(status)")
            }
            #expect(try await api.send(.get, "/v1/days/2026-05-01?tz=Mars/Olympus", token: me.accessToken).status.code == 422)
        }
    }
}
