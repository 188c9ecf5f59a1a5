import Foundation
import Testing

@testable import MyDayKit

@MainActor
@Suite struct ProfileViewModelTests {
    let harness = CoreHarness()

    @Test func showsTotalsAndStreaks() async throws {
        var client = FakeMyDayClient()
        client.onStats = { zone in
            #expect(zone == "Europe/Paris")
            return DiaryStatistics(
                timeZone: zone, totalEntries: 12, totalDuration: 754, words: 900, currentStreakDays: 1, longestStreakDays: 5,
                months: [], storageUsedBytes: 1_200_000_000, storageQuotaBytes: 10_000_000_000)
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris)
        await profile.load()
        #expect(profile.totalsText == "12 entries · 12:34 recorded")
        #expect(profile.streakText == "Streak: 1 day (longest 5)")
        #expect(profile.storageText == "Storage: 1.2 GB of 10 GB used")
    }

    @Test func anExportIsFollowedUntilItsLinkIsReady() async throws {
        // Given a server that builds the export over two polls
        let id = UUID()
        let link = URL(string: "http://127.0.0.1:1/v1/blobs/exports/x.zip?sig=1")!
        let polls = CallCounter()
        var client = FakeMyDayClient()
        client.onRequestExport = { from, to, zone, email in
            #expect([from, to, zone] == ["2026-11-01", "2026-11-21", "Europe/Paris"])
            #expect(email == "me@example.com")
            return ExportStatus(id: id, from: from, to: to, state: .queued)
        }
        client.onExport = { _ in
            polls.increment() == 1
                ? ExportStatus(id: id, from: "", to: "", state: .building)
                : ExportStatus(id: id, from: "", to: "", state: .ready, downloadURL: link)
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris, pollInterval: .zero)
        profile.exportFrom = try Date("2026-10-31T23:30:00Z", strategy: .iso8601)
        profile.exportTo = try Date("2026-11-21T12:00:00Z", strategy: .iso8601)
        profile.exportEmail = " me@example.com "
        // When the export is started, then it ends with the link
        await profile.startExport()
        #expect(profile.export == .ready(link))
        #expect(polls.count == 2)
    }

    @Test func aRangeThatEndsBeforeItStartsIsRefusedWithoutARequest() async throws {
        let profile = ProfileViewModel(core: harness.core(), timeZone: Given.paris)
        profile.exportFrom = Given.now
        profile.exportTo = Given.now.addingTimeInterval(-86_400 * 2)
        await profile.startExport()
        #expect(profile.export == .failed("The first day comes after the last."))
    }

    @Test func deletingTheAccountNeedsTheTypedWord() async throws {
        var client = FakeMyDayClient()
        client.onDeleteAccount = { #expect($0 == "a long diary password") }
        let profile = ProfileViewModel(core: harness.core(client))
        profile.deleteConfirmation = "delete"
        await profile.deleteAccount(password: "a long diary password")
        #expect(!profile.isSignedOut)
        profile.deleteConfirmation = "DELETE"
        await profile.deleteAccount(password: "a long diary password")
        #expect(profile.isSignedOut)
    }

    @Test func signingOutIsRefusedWhileEntriesAreUnsent() async throws {
        // Given a note that never reached the server
        try harness.store.noteWritten("Unsent.", at: Given.now, timeZone: Given.paris)
        var client = FakeMyDayClient()
        client.onLogout = {}
        let profile = ProfileViewModel(core: harness.core(client))
        // When signing out, then it is refused with the reason, and the note stays
        await profile.signOut()
        #expect(!profile.isSignedOut)
        #expect(profile.errorMessage?.contains("1 change has not reached the server") == true)
        // Unless the person chooses to discard it
        await profile.signOut(discardingUnsent: true)
        #expect(profile.isSignedOut)
        #expect(try harness.store.entries().isEmpty)
    }
}
