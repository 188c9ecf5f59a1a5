import Foundation
import MyDayKit
import MyDayModels
import MyDaySearch
import Testing

/// The device's own search: the server's rules over the local copy (ADR 0025).
struct LocalSearchTests {
    let store = try! LocalStore.inMemory()

    @discardableResult
    private func synced(
        _ text: String?, at iso: String, tz: String = "Europe/Berlin", title: String? = nil, tags: [String] = [],
        mood: Int? = nil, kind: EntryKind = .text
    ) throws -> UUID {
        let id = UUID()
        let created = try Date(iso, strategy: .iso8601)
        let entry = ServerEntry(
            id: id, createdAt: created, timeZone: tz, duration: 0, kind: kind, status: .transcribed,
            filename: RecordingFilename.make(id: id, start: created, timeZone: TimeZone(identifier: tz)!), title: title,
            tags: tags,
            mood: mood, transcriptClean: text, updatedAt: created)
        try store.applyServerChanges(EntryChanges(entries: [entry], deletedIDs: [], nextCursor: "1", hasMore: false))
        return id
    }

    private func found(_ text: String, _ filters: SearchFilters = SearchFilters(), today: LocalDay? = nil) throws -> [UUID] {
        try store.search(SearchQuery(parsing: text, dates: today.map(DatePhrases.init(today:))), filters: filters).map(\.id)
    }

    @Test func titleThenTagsThenTranscriptAndPrefixesAccentsPhrases() throws {
        // Given entries where one word stands in a title, in tags and in transcripts
        let title = try synced("Packed the car for the weekend.", at: "2026-03-01T09:00:00Z", title: "Lake house")
        let tag = try synced("Swimming, then reading on the jetty.", at: "2026-03-02T09:00:00Z", tags: ["lake"])
        let thrice = try synced("The lake at dawn, the lake at noon, the lake again at dusk.", at: "2026-03-03T09:00:00Z")
        let cafe = try synced("Dinner at the Café Central.", at: "2026-03-04T09:00:00Z")
        let russian = try synced("Привет из Москвы.", at: "2026-03-05T09:00:00Z")

        // Then the device ranks and matches as the server does
        #expect(try found("lake") == [title, tag, thrice])
        #expect(try found("LAK") == [title, tag, thrice])
        #expect(try found(#""the lake at dawn""#) == [thrice])
        #expect(try found(#""lake the dawn""#).isEmpty)
        #expect(try found("cafe") == [cafe])
        #expect(try found("CAFÉ central") == [cafe])
        #expect(try found("привет") == [russian])
        for odd in ["lake*", "(lake", #""lake"#, "lake OR", "{lake}", "lake:", "-lake", "^lake"] {
            #expect(try found(odd) == [title, tag, thrice], "\(odd)")
        }
    }

    @Test func filtersAndDatePhrasesUseEachEntrysOwnDay() throws {
        let today = LocalDay(year: 2026, month: 3, day: 18)
        let lateInBerlin = try synced("Night walk.", at: "2026-03-17T23:30:00Z", tags: ["walk"], mood: 4)
        let yesterdayInCalifornia = try synced("Beach walk.", at: "2026-03-18T03:00:00Z", tz: "America/Los_Angeles")
        let lastWeek = try synced("Walk with Alex.", at: "2026-03-12T10:00:00Z", tags: ["Walk", "alex"], mood: 2)
        let recording = try synced("Walk recorded.", at: "2026-03-12T11:00:00Z", kind: .audio)
        #expect(try found("walk today", today: today) == [lateInBerlin])
        #expect(try found("yesterday", today: today) == [yesterdayInCalifornia])
        #expect(Set(try found("walk last week", today: today)) == [lastWeek, recording])
        #expect(try found("what did I do with Alex last week?", today: today) == [lastWeek])
        #expect(Set(try found("", SearchFilters(tags: ["walk"]))) == [lateInBerlin, lastWeek])
        #expect(try found("walk", SearchFilters(moods: [2, 3])) == [lastWeek])
        #expect(try found("walk", SearchFilters(kind: .audio)) == [recording])
        let march17 = LocalDay(year: 2026, month: 3, day: 17)
        #expect(try found("walk", SearchFilters(from: march17, to: march17)) == [yesterdayInCalifornia])
    }

    @Test func editsDeletionsAndNewWordsKeepTheIndexTrue() throws {
        let id = try synced("Morning run in the fog.", at: "2026-03-01T09:00:00Z")
        #expect(try found("fog") == [id])
        // A local edit is searchable at once
        try store.editEntry(id, EntryEdit(title: "Sea", text: "Evening swim."))
        #expect(try found("fog").isEmpty)
        #expect(try found("swim") == [id] && found("sea") == [id])
        // A typed note not sent yet is found too
        let note = try store.noteWritten("A note about the harbour.")
        #expect(try found("harbour") == [note.id])
        // Deleted here: never found
        _ = try store.deleteEntry(id)
        #expect(try found("swim").isEmpty)
    }
}
