import Foundation
import MyDaySearch
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// `GET /v1/me/question`: one question about something ahead the person mentioned in the last days, in their words.
@Suite struct GentleQuestionTests {
    private let today = LocalDay(iso: "2026-11-27")!  // a Friday

    private func source(_ day: String, _ hour: Int, _ text: String) -> GentleQuestion.Source {
        let local = LocalDay(iso: day)!
        return GentleQuestion.Source(
            entryID: UUID(), day: local,
            createdAt: Calendar(identifier: .gregorian).date(
                from: DateComponents(timeZone: .gmt, year: local.year, month: local.month, day: local.day, hour: hour))!,
            text: text)
    }

    @Test func itQuotesTheNewestSentenceAboutSomethingAheadAndNamesTheDay() throws {
        let entries = [
            source("2026-11-24", 20, "Quiet day. Tomorrow is the job interview with Sam at the library."),
            source("2026-11-25", 21, "Cooked soup and read. Nothing much."),
        ]
        let question = try #require(GentleQuestion.make(from: entries, today: today))
        #expect(question.text == "On Tuesday you mentioned “interview with Sam at the library”. How did it go?", "\(question)")
        #expect(entries[0].text.contains(question.phrase) && question.entryID == entries[0].entryID)
        // Yesterday is named so
        let yesterday = GentleQuestion.make(
            from: [source("2026-11-26", 9, "Dentist appointment tomorrow morning, ugh.")], today: today)
        #expect(
            yesterday?.text.hasPrefix("Yesterday you mentioned “Dentist appointment") == true, "\(String(describing: yesterday))")
    }

    @Test func nothingIsAskedAboutWhatWasNotSaidWrittenAboutSinceOrTooLongAgo() {
        // Nothing ahead in the words: no question
        #expect(GentleQuestion.make(from: [source("2026-11-26", 20, "Walked the dog. Rain again.")], today: today) == nil)
        // Written about since: no question
        let followedUp = [
            source("2026-11-25", 20, "Tomorrow is the job interview with Sam."),
            source("2026-11-26", 20, "The interview went well, Sam was kind."),
        ]
        #expect(GentleQuestion.make(from: followedUp, today: today) == nil)
        // Four days ago, or today: not asked
        #expect(
            GentleQuestion.make(from: [source("2026-11-23", 20, "Tomorrow is the job interview with Sam.")], today: today) == nil)
        #expect(
            GentleQuestion.make(from: [source("2026-11-27", 8, "Tomorrow is the job interview with Sam.")], today: today) == nil)
    }

    @Test(arguments: TestDatabase.available)
    func theQuestionIsTheOwnersAndTheSameAllDay(_ database: TestDatabase) async throws {
        let now = try Date("2026-11-27T10:00:00Z", strategy: .iso8601)
        try await TestServer.make(database) { $0.clock = { now } }.run { api in
            let me = try await api.register()
            let other = try await api.register()
            #expect(try await api.send(.get, "/v1/me/question?tz=UTC", token: me.accessToken).status == .noContent)
            for (session, text) in [
                (me, "Nervous: the flight to Lisbon is tomorrow."), (other, "Tomorrow the dentist appointment."),
            ] {
                try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: [
                        "id": UUID().uuidString, "created_at": "2026-11-26T20:00:00Z", "tz": "UTC", "duration_s": 0,
                        "kind": "text", "text": text,
                    ], expecting: .created)
            }
            let asked = try await api.send(.get, "/v1/me/question?tz=UTC", token: me.accessToken, expecting: .ok)
            #expect(
                asked.json["text"] as? String == "Yesterday you mentioned “flight to Lisbon”. How did it go?", "\(asked.text)")
            #expect(asked.json["date"] as? String == "2026-11-26" && !asked.text.contains("dentist"))
            #expect(try await api.send(.get, "/v1/me/question?tz=UTC", token: me.accessToken).text == asked.text)
            #expect(try await api.send(.get, "/v1/me/question?tz=Nowhere", token: me.accessToken).status.code == 422)
        }
    }
}
