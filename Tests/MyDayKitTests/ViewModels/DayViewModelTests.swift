import Foundation
import MyDayModels
import Testing

@testable import MyDayKit

@MainActor
@Suite struct DayViewModelTests {
    let harness = CoreHarness()

    @Test func theDaySaysItsSummaryAndARecordedSentencePlaysFromItsStart() async throws {
        // Given a day of a recording and a typed note
        let recording = UUID()
        let note = UUID()
        let at = Date(timeIntervalSince1970: 1_777_600_000)
        var client = FakeMyDayClient()
        client.onDay = { date, zone in
            #expect(date == "2026-05-01" && zone == "Europe/Paris")
            return DayPage(
                date: date,
                entries: [
                    ServerEntry(
                        id: recording, createdAt: at, timeZone: zone, duration: 30, kind: .audio, status: .transcribed,
                        filename: "a.m4a", updatedAt: at),
                    ServerEntry(
                        id: note, createdAt: at, timeZone: zone, duration: 0, kind: .text, status: .transcribed,
                        filename: "b.txt", updatedAt: at),
                ], tags: ["sea", "friends"], mood: 3,
                digest: [
                    .init(text: "We rowed across the harbour.", entryID: recording, start: 4.5),
                    .init(text: "Wrote to Przemek.", entryID: note, start: nil),
                ])
        }
        let day = DayViewModel(date: "2026-05-01", core: harness.core(client), timeZone: Given.paris)
        await day.load()
        // Then it reads as the day, and only the recorded sentence plays, from where it begins
        #expect(day.summary == "2 entries · mood 3 of 5 · sea, friends")
        #expect(day.title.contains("2026") && day.title.contains("May"))
        let page = try #require(day.page)
        #expect(day.playback(of: page.digest[0])?.start == 4.5 && day.playback(of: page.digest[0])?.entryID == recording)
        #expect(day.playback(of: page.digest[1]) == nil)
    }

    @Test func theEntriesAreListedAtTheirOwnTimeWithTheLibrarysWords() async throws {
        // Given a day holding a recording made in New York and an untitled note made in Paris
        let (recording, note) = (UUID(), UUID())
        let at = Date(timeIntervalSince1970: 1_777_640_400)  // 13:00 UTC
        var client = FakeMyDayClient()
        client.onDay = { date, _ in
            DayPage(
                date: date,
                entries: [
                    ServerEntry(
                        id: recording, createdAt: at, timeZone: "America/New_York", duration: 30, kind: .audio,
                        status: .transcribed, filename: "a.m4a", updatedAt: at),
                    ServerEntry(
                        id: note, createdAt: at.addingTimeInterval(600), timeZone: "Europe/Paris", duration: 0, kind: .text,
                        status: .transcribed, filename: "b.txt", transcriptClean: "Wrote to Przemek.\nThen slept.",
                        updatedAt: at),
                ], tags: [], mood: nil, digest: [])
        }
        let day = DayViewModel(
            date: "2026-05-01", core: harness.core(client), timeZone: Given.paris, locale: Locale(identifier: "en_GB"))
        await day.load()
        // Then each is at the time of its own zone, named as the Library names it
        #expect(
            day.entryLines.map { "\($0.time) \($0.title)" } == ["09:00 Voice entry", "15:10 Wrote to Przemek."])
        #expect(day.entryLines.map(\.id) == [recording, note])
    }
}
