import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

@MainActor
@Suite struct LibraryViewModelTests {
    let harness = CoreHarness()

    private func entry(_ iso: String, zone: String, status: EntryStatus = .transcribed, transcript: String? = "Words.")
        throws -> ServerEntry
    {
        var entry = Given.serverEntry(UUID(), status: status, transcript: transcript)
        entry.createdAt = try Date(iso, strategy: .iso8601)
        entry.timeZone = zone
        return entry
    }

    @Test func groupsByMonthAndDayInEachEntrysOwnTimeZoneNewestFirst() throws {
        // Given an entry at 23:30 UTC on 31 October recorded in Paris (already 1 November there) and one in New York
        let paris = try entry("2026-10-31T23:30:00Z", zone: "Europe/Paris", transcript: "Paris after midnight.")
        let newYork = try entry("2026-10-31T23:00:00Z", zone: "America/New_York", transcript: "New York evening.")
        let earlier = try entry("2026-10-30T08:00:00Z", zone: "America/New_York", status: .transcribing, transcript: nil)
        try harness.synced([paris, newYork, earlier])
        // When the library shows them
        let model = LibraryViewModel(core: harness.core(), locale: Locale(identifier: "en_US"))
        model.show(try harness.store.entries())
        // Then Paris's entry is on 1 November, New York's two on their October days, newest first
        #expect(model.months.map(\.id) == ["2026-11", "2026-10"])
        #expect(model.months.map(\.title) == ["November 2026", "October 2026"])
        #expect(model.months[0].days.map(\.title) == ["Sunday, November 1"])
        #expect(model.months[1].days.map(\.id) == ["2026-10-31", "2026-10-30"])
        let rows = model.months.flatMap(\.days).flatMap(\.rows)
        #expect(rows.map(\.title) == ["Paris after midnight.", "New York evening.", "Voice entry"])
        #expect(rows.first?.time == "12:30\u{202F}AM")  // ICU puts a narrow no-break space before AM
        #expect(rows.map(\.pill) == [nil, nil, .transcribing(percent: nil)])
        #expect(rows.last?.pill?.text == "Transcribing…")
        #expect(rows.first?.duration == "0:12")
    }

    @Test func queuedAndRefusedEntriesShowTheirPills() throws {
        let store = harness.store
        let queued = try store.noteWritten("Typed.", at: Given.now, timeZone: Given.paris)
        let refused = try store.noteWritten("Refused.", at: Given.now.addingTimeInterval(-60), timeZone: Given.paris)
        try store.markUploadGaveUp(refused.id, reason: "Too long.")
        let model = LibraryViewModel(core: harness.core(), locale: Locale(identifier: "en_US"))
        model.show(try store.entries())
        let pills = model.months.flatMap(\.days).flatMap(\.rows).map { $0.pill?.text }
        #expect(pills == ["Waiting to upload", "Failed — tap to retry"])
        #expect(model.months.flatMap(\.days).flatMap(\.rows).first?.id == queued.id)
        #expect(model.months.flatMap(\.days).flatMap(\.rows).first?.duration == nil)
    }

    @Test func rowsShowTheirTagsAndMood() throws {
        // Given an entry with tags and a mood, one with a mood only, and one with neither
        let store = harness.store
        let tagged = try store.noteWritten("Walked.", at: Given.now, timeZone: Given.paris)
        try store.editEntry(tagged.id, EntryEdit(tags: ["walk", "family"], mood: 4))
        let moody = try store.noteWritten("Tired.", at: Given.now.addingTimeInterval(-60), timeZone: Given.paris)
        try store.editEntry(moody.id, EntryEdit(mood: 2))
        _ = try store.noteWritten("Plain.", at: Given.now.addingTimeInterval(-120), timeZone: Given.paris)
        // When the Library shows them, then each row says what it has
        let model = LibraryViewModel(core: harness.core(), locale: Locale(identifier: "en_US"))
        model.show(try store.entries())
        let details = model.months.flatMap(\.days).flatMap(\.rows).map(\.details)
        #expect(details == ["walk, family · Mood 4 of 5", "Mood 2 of 5", nil])
    }

    @Test func lengthsAreWholeSecondsRoundedDownAsPlayersShowThem() {
        #expect(formattedDuration(9.9) == "0:09")
        #expect(formattedDuration(59.999) == "0:59")
        #expect(formattedDuration(3600) == "1:00:00")
        #expect(formattedDuration(.infinity) == "0:00")
    }

    @Test func anEmptyLibraryIsEmpty() {
        let model = LibraryViewModel(core: harness.core())
        model.show([])
        #expect(model.isEmpty)
    }

    @Test func pullToRefreshSyncsAndAFailureSaysEntriesAreSafe() async throws {
        // Given a server with one entry, then one that cannot be reached
        let id = UUID()
        var client = FakeMyDayClient()
        client.onChanges = { _, _ in
            EntryChanges(entries: [Given.serverEntry(id)], deletedIDs: [], nextCursor: "1", hasMore: false)
        }
        let model = LibraryViewModel(core: harness.core(client), locale: Locale(identifier: "en_US"))
        await model.refresh()
        #expect(model.months.flatMap(\.days).flatMap(\.rows).map(\.id) == [id])
        #expect(model.errorMessage == nil)
        var down = FakeMyDayClient()
        down.onChanges = { _, _ in throw URLError(.cannotConnectToHost) }
        let offline = LibraryViewModel(core: harness.core(down))
        await offline.refresh()
        #expect(offline.errorMessage?.contains("safe on this device") == true)
        #expect(!offline.isRefreshing)
        #expect(offline.months.flatMap(\.days).flatMap(\.rows).map(\.id) == [id])
    }

    @Test func observingFollowsTheStore() async throws {
        // Given a library following the store
        let model = LibraryViewModel(core: harness.core())
        let following = Task { await model.observe() }
        defer { following.cancel() }
        // When a note is written, then it appears without a refresh
        try harness.store.noteWritten("Seen live.", at: Given.now, timeZone: Given.paris)
        try await pollUntil("the note is listed", deadline: .seconds(10)) {
            model.months.flatMap(\.days).flatMap(\.rows).map(\.title) == ["Seen live."]
        }
    }
}
