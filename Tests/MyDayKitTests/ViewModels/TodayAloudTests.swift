import Foundation
import MyDayKit
import Testing

@Suite struct TodayAloudTests {
    let harness = CoreHarness()
    let paris = Given.paris
    let britishEnglish = Locale(identifier: "en_GB")

    @Test func todaysEntriesAreReadOldestFirstWithTheirTimesTitlesAndWords() throws {
        // Given, on 18 November in Paris: a note at 10:06, a transcribed recording at 11:06 titled "Evening", a
        // recording still waiting for its words at 12:00, and yesterday's note
        try harness.store.noteWritten(
            "Coffee with Siobhan", at: Given.now.addingTimeInterval(-7200), timeZone: paris)
        try harness.synced([Given.serverEntry(UUID(), title: "Evening")])
        var waiting = Given.serverEntry(UUID(), status: .transcribing, transcript: nil)
        waiting.createdAt = Given.now.addingTimeInterval(-400)
        try harness.synced([waiting])
        try harness.store.noteWritten("Yesterday's words", at: Given.now.addingTimeInterval(-26 * 3600), timeZone: paris)
        // When today is read aloud
        let text = TodayAloud.text(try harness.store.entries(), now: Given.now, timeZone: paris, locale: britishEnglish)
        // Then
        #expect(
            text
                == "You have 3 entries today. At 10:06: Coffee with Siobhan. At 11:06, Evening: A walk by the river. "
                + "At 12:00: a recording, not transcribed yet.")
    }

    @Test func aDayWithoutEntriesSaysSoAndAFullDayIsCounted() throws {
        #expect(TodayAloud.text([], now: Given.now, timeZone: paris) == "You have no entries today yet.")
        for minute in 0..<7 {
            try harness.store.noteWritten(
                "Note \(minute)", at: Given.now.addingTimeInterval(Double(-minute * 60)), timeZone: paris)
        }
        let text = TodayAloud.text(try harness.store.entries(), now: Given.now, timeZone: paris, locale: britishEnglish)
        #expect(text.hasPrefix("You have 7 entries today. At 12:00: Note 6."))
        #expect(text.hasSuffix("At 12:04: Note 2. And 2 more in the app."))
    }
}
