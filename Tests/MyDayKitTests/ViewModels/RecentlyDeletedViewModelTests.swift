import Foundation
import Synchronization
import Testing

@testable import MyDayKit

@MainActor
@Suite struct RecentlyDeletedViewModelTests {
    let harness = CoreHarness()

    @Test func anEntryBroughtBackIsInTheLibraryAgainAndOneDeletedForGoodLeavesTheList() async throws {
        // Given two entries deleted on another device: the server lists them, this device synced their deletion
        let (back, gone) = (UUID(), UUID())
        try harness.synced([Given.serverEntry(back, transcript: "Lunch by the harbour."), Given.serverEntry(gone)])
        try harness.store.applyServerChanges(
            EntryChanges(entries: [], deletedIDs: [back, gone], nextCursor: "2", hasMore: false))
        let deletedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let listed = [back, gone].map {
            DeletedEntry(entry: Given.serverEntry($0), deletedAt: deletedAt, purgeAt: deletedAt.addingTimeInterval(30 * 86_400))
        }
        let asked = Mutex<[String]>([])
        var client = FakeMyDayClient()
        client.onRecentlyDeleted = { listed }
        client.onRestoreEntry = { id in
            asked.withLock { $0.append("restore \(id == back)") }
            return Given.serverEntry(id, transcript: "Lunch by the harbour.")
        }
        client.onEraseEntry = { id in asked.withLock { $0.append("erase \(id == gone)") } }
        client.onChanges = { _, _ in
            EntryChanges(
                entries: [Given.serverEntry(back, transcript: "Lunch by the harbour.")], deletedIDs: [], nextCursor: "3",
                hasMore: false)
        }
        let model = RecentlyDeletedViewModel(core: harness.core(client), now: { deletedAt.addingTimeInterval(86_400) })
        await model.load()
        #expect(model.entries.map(\.entry.id) == [back, gone])
        #expect(model.timeLeft(model.entries[0]) == "Deleted for good in 29 days")
        #expect(try harness.store.entry(back) == nil)

        // When one is brought back
        await model.restore(model.entries[0])
        // Then the server is asked, the list no longer shows it, and the Library has it again after the sync
        #expect(model.entries.map(\.entry.id) == [gone] && model.notice == "Brought back.")
        #expect(try harness.store.entry(back)?.transcriptClean == "Lunch by the harbour.")

        // When the other is deleted for good, it leaves the list
        await model.erase(model.entries[0])
        #expect(model.entries.isEmpty && model.notice == "Deleted for good." && model.errorMessage == nil)
        #expect(asked.withLock { $0 } == ["restore true", "erase true"])
    }

    @Test func eachEntryIsNamedAsTheLibraryNamesItAtItsOwnTime() async throws {
        // Given a recording without words made in Tokyo and a note with a title, listed on a phone in Paris
        let made = Date(timeIntervalSince1970: 1_777_640_400)  // 2026-05-01 13:00 UTC: 22:00 in Tokyo
        var silent = Given.serverEntry(UUID(), transcript: nil)
        silent.createdAt = made
        silent.timeZone = "Asia/Tokyo"
        silent.noSpeech = true
        var typed = Given.serverEntry(UUID(), transcript: "Lunch by the harbour.", title: "Harbour")
        typed.kind = .text
        let listed = [silent, typed]
        var client = FakeMyDayClient()
        client.onRecentlyDeleted = {
            listed.map { DeletedEntry(entry: $0, deletedAt: made, purgeAt: made.addingTimeInterval(86_400 * 30)) }
        }
        let model = RecentlyDeletedViewModel(
            core: harness.core(client), now: { made }, locale: Locale(identifier: "en_GB"))
        await model.load()
        // Then the recording says when it was made where it was made, and each has the Library's words
        let when = model.when(model.entries[0])
        #expect(when.contains("Friday") && when.contains("1 May 2026") && when.contains("22:00"), "\(when)")
        #expect(model.title(model.entries[0]) == "No speech" && model.title(model.entries[1]) == "Harbour")
    }

    @Test func whatTheLastActionDidIsSaidUntilAnotherBegins() async throws {
        // Given two deleted entries; bringing one back works, deleting the other for good does not
        let (back, stuck) = (UUID(), UUID())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var client = FakeMyDayClient()
        client.onRecentlyDeleted = {
            [back, stuck].map {
                DeletedEntry(entry: Given.serverEntry($0), deletedAt: now, purgeAt: now.addingTimeInterval(86_400))
            }
        }
        client.onRestoreEntry = { Given.serverEntry($0) }
        client.onChanges = { _, _ in EntryChanges(entries: [], deletedIDs: [], nextCursor: "1", hasMore: false) }
        client.onEraseEntry = { _ in throw URLError(.notConnectedToInternet) }
        let model = RecentlyDeletedViewModel(core: harness.core(client), now: { now })
        await model.load()
        await model.restore(model.entries[0])
        #expect(model.notice == "Brought back.")
        // When the next action fails, its error is said alone
        await model.erase(model.entries[0])
        #expect(model.notice == nil && model.errorMessage != nil)
    }

    @Test func aFailureIsSaidAndTheListStays() async throws {
        let id = UUID()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var client = FakeMyDayClient()
        client.onRecentlyDeleted = {
            [DeletedEntry(entry: Given.serverEntry(id), deletedAt: now, purgeAt: now.addingTimeInterval(3_600))]
        }
        client.onEraseEntry = { _ in throw URLError(.notConnectedToInternet) }
        let model = RecentlyDeletedViewModel(core: harness.core(client), now: { now })
        await model.load()
        #expect(model.timeLeft(model.entries[0]) == "Deleted for good today")
        await model.erase(model.entries[0])
        #expect(model.entries.count == 1 && model.errorMessage != nil && model.notice == nil)
    }
}
