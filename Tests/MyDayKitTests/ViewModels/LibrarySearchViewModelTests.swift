import Foundation
import MyDayModels
import MyDaySearch
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDayKit

@MainActor
@Suite struct LibrarySearchViewModelTests {
    let harness = CoreHarness()
    /// Wednesday 2026-03-18 in Berlin.
    nonisolated static let now = Date(timeIntervalSince1970: 1_773_835_200)

    private func model(_ client: FakeMyDayClient) -> LibrarySearchViewModel {
        LibrarySearchViewModel(
            core: harness.core(client), locale: Locale(identifier: "en_GB"), timeZone: TimeZone(identifier: "Europe/Berlin")!,
            now: { Self.now })
    }

    private func hit(_ title: String, text: String, match: Range<Int>) -> SearchHit {
        var entry = Given.serverEntry(UUID(), transcript: text, title: title)
        entry.tags = ["walk"]
        return SearchHit(
            entry: entry, highlights: [SearchHighlight(field: .text, highlight: Highlight(text: text, matches: [match]))])
    }

    @Test func hitsComeInTheServersOrderWithTheirMatchesAndChips() async throws {
        // Given a server that finds two entries for "river last week" and reads the date phrase
        let first = hit("Evening", text: "By the river again.", match: 7..<12)
        let second = hit("Morning", text: "A river walk.", match: 2..<7)
        let asked = Mutex<[SearchRequest]>([])
        var client = FakeMyDayClient()
        client.onSearch = { request in
            asked.withLock { $0.append(request) }
            let dates = LocalDayRange(from: LocalDay(year: 2026, month: 3, day: 9), to: LocalDay(year: 2026, month: 3, day: 15))
            return request.cursor == nil
                ? SearchPage(
                    hits: [first], nextCursor: "page-2", datePhrase: request.readsDates ? "last week" : nil,
                    dates: request.readsDates ? dates : nil)
                : SearchPage(hits: [second], nextCursor: nil)
        }
        let model = model(client)
        model.text = "river last week"
        model.filters.tags = ["walk"]

        // When the person searches, then loads more
        await model.search()
        #expect(model.rows?.map(\.id) == [first.entry.id])
        #expect(model.rows?.first?.snippet == Highlight(text: "By the river again.", matches: [7..<12]))
        #expect(model.rows?.first?.title.text == "Evening")
        #expect(model.chips.map(\.filter) == [.datePhrase, .tag("walk")])
        #expect(
            model.chips.first?.label.hasPrefix("last week · 9") == true
                && model.chips.first?.label.hasSuffix("15 Mar 2026") == true)
        #expect(model.canLoadMore)
        await model.loadMore()
        #expect(model.rows?.map(\.id) == [first.entry.id, second.entry.id])
        #expect(!model.canLoadMore)
        #expect(asked.withLock { $0.map(\.cursor) } == [nil, "page-2"])
        #expect(asked.withLock { $0[0].timeZone.identifier == "Europe/Berlin" && $0[0].filters.tags == ["walk"] })

        // And taking the date chip away asks again with the words as words
        await model.remove(model.chips[0])
        #expect(asked.withLock { $0.last?.readsDates } == false)
        #expect(model.chips.map(\.label) == ["#walk"])
        // Clearing the words and filters ends the search
        model.text = ""
        model.filters = SearchFilters()
        await model.search()
        #expect(model.rows == nil && model.chips.isEmpty)
    }

    @Test func onlyTheWordsTypingPausedOnAreSearchedForAndOnlyOnce() async throws {
        // Given a server that answers every search, and a typing pause the test ends
        let asked = Mutex<[String]>([])
        var client = FakeMyDayClient()
        client.onSearch = { request in
            asked.withLock { $0.append(request.text) }
            return SearchPage(hits: [], nextCursor: nil)
        }
        let paused = Gate()
        let model = LibrarySearchViewModel(
            core: harness.core(client), locale: Locale(identifier: "en_GB"), timeZone: TimeZone(identifier: "Europe/Berlin")!,
            now: { Self.now }, typingPause: { await paused.wait() })
        // When "riv" is typed, then "river" before typing paused (the screen cancels the first task)
        model.text = "riv"
        let first = Task { await model.textChanged() }
        try await pollUntil("the first words wait for the pause") { paused.waiterCount == 1 }
        model.text = "river"
        first.cancel()
        let second = Task { await model.textChanged() }
        try await pollUntil("the second words wait for the pause") { paused.waiterCount == 2 }
        paused.open()
        await first.value
        await second.value
        // Then only "river" was searched for
        #expect(asked.withLock { $0 } == ["river"])
        #expect(model.showsNoMatches)
        // And the same words again (the screen shown again) search nothing
        await model.textChanged()
        #expect(asked.withLock { $0 } == ["river"])
    }

    @Test func offlineTheDeviceSearchesItsOwnCopyAndSaysSo() async throws {
        // Given a synced entry and a note not sent yet, and a server that cannot be reached
        var synced = Given.serverEntry(UUID(), transcript: "Lunch at the Café by the harbour.")
        synced.title = "Harbour"
        try harness.synced([synced])
        let note = try harness.store.noteWritten("Harbour lights at night.")
        var client = FakeMyDayClient()
        client.onSearch = { _ in throw URLError(.notConnectedToInternet) }
        let model = model(client)
        model.text = "harbour"
        // When the person searches
        await model.search()
        // Then both are found, the title match first, with the matches marked, and the screen says why
        #expect(model.rows?.map(\.id) == [synced.id, note.id])
        #expect(model.rows?.first?.title == Highlight(text: "Harbour", matches: [0..<7]))
        #expect(model.offlineNotice == "You are offline: searching what is on this device.")
        #expect(!model.canLoadMore)
        model.text = "nothing like this"
        await model.search()
        #expect(model.showsNoMatches)
    }

    @Test func aNoteNotSentYetIsFoundBesideTheServersHits() async throws {
        let note = try harness.store.noteWritten("A harbour note, typed offline.")
        let served = hit("Harbour", text: "The harbour.", match: 4..<11)
        var client = FakeMyDayClient()
        client.onSearch = { _ in SearchPage(hits: [served], nextCursor: nil) }
        let model = model(client)
        model.text = "harbour"
        await model.search()
        #expect(model.rows?.map(\.id) == [note.id, served.entry.id])
        #expect(model.rows?.first?.pill == .waiting)
        #expect(model.offlineNotice == nil)
    }

    @Test func anOlderAnswerArrivingLateNeverReplacesANewerOne() async throws {
        let slow = Gate()
        let old = hit("Old", text: "old words", match: 0..<3)
        let new = hit("New", text: "new words", match: 0..<3)
        var client = FakeMyDayClient()
        client.onSearch = { request in
            if request.text == "old" {
                await slow.wait()
                return SearchPage(hits: [old], nextCursor: nil)
            }
            return SearchPage(hits: [new], nextCursor: nil)
        }
        let model = model(client)
        model.text = "old"
        let first = Task { await model.search() }
        // The first search is under way when the words change
        try await pollUntil("the first search waits") { slow.waiterCount == 1 }
        model.text = "new"
        await model.search()
        slow.open()
        await first.value
        #expect(model.rows?.map(\.id) == [new.entry.id])
    }
}
