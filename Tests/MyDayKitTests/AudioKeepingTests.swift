import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// Phone storage: audio the server has leaves the phone after the days a person chose; audio it lacks never does.
@Suite struct AudioKeepingTests {
    let harness = CoreHarness()
    let days: TimeInterval = 86_400

    /// A recording of a hundred days ago, in the library and the queue.
    private func recorded() throws -> FinishedRecording {
        let source = Given.folder().appendingPathComponent("clip.wav")
        try TestMedia.wav(seconds: 1).write(to: source)
        let recording = try harness.library.importFile(
            source, startedAt: Given.now.addingTimeInterval(-100 * days), timeZone: Given.paris)
        try harness.store.recordFinished(recording)
        return recording
    }

    private func onPhone(_ recording: FinishedRecording) -> Bool {
        FileManager.default.fileExists(atPath: harness.library.url(of: recording.audioPath).path)
    }

    @Test func audioTheServerConfirmedLongerAgoThanTheSettingLeavesThePhoneAndNothingElseDoes() throws {
        // Given a recording the server confirmed 40 days ago, one it confirmed 2 days ago, one refused, one never sent
        let old = try recorded()
        try harness.store.markUploaded(Given.serverEntry(old.id), now: Given.now.addingTimeInterval(-40 * days))
        let recent = try recorded()
        try harness.store.markUploaded(Given.serverEntry(recent.id), now: Given.now.addingTimeInterval(-2 * days))
        let refused = try recorded()
        try harness.store.markUploadGaveUp(refused.id, reason: "Too long.")
        let unsent = try recorded()
        let core = harness.core()

        // When the phone keeps audio for 30 days
        try core.releaseUploadedAudio(keeping: .days(30), now: Given.now)
        // Then only the old recording's file is gone, and its entry plays from the server from now on
        #expect(!onPhone(old) && onPhone(recent) && onPhone(refused) && onPhone(unsent))
        #expect(try harness.store.entry(old.id)?.audioPath == nil)
        #expect(try harness.store.entry(unsent.id)?.audioPath == unsent.audioPath)

        // When the setting keeps audio only until it is uploaded, the recent one goes too, never the others
        try core.releaseUploadedAudio(keeping: .days(0), now: Given.now)
        #expect(!onPhone(recent) && onPhone(refused) && onPhone(unsent))
        #expect(try harness.store.unsentCount() == 2)
    }

    @Test func audioStaysConfirmedWhenTheServerLaterSendsTheEntryAgain() throws {
        // Given a recording the server confirmed 40 days ago, then sent again by a sync (its words done since)
        let old = try recorded()
        try harness.store.markUploaded(Given.serverEntry(old.id), now: Given.now.addingTimeInterval(-40 * days))
        try harness.synced([Given.serverEntry(old.id)])

        // When the phone keeps audio for 30 days, then its file is let go
        try harness.core().releaseUploadedAudio(keeping: .days(30), now: Given.now)
        #expect(!onPhone(old))
        #expect(try harness.store.entry(old.id)?.audioPath == nil)
    }

    @Test func keepingAlwaysRemovesNothing() throws {
        let old = try recorded()
        try harness.store.markUploaded(Given.serverEntry(old.id), now: Given.now.addingTimeInterval(-4_000 * days))
        try harness.core().releaseUploadedAudio(keeping: .always, now: Given.now)
        #expect(onPhone(old))
    }

    @Test func theSettingIsStoredAsANumberAndReadBack() {
        for choice in AudioKeeping.choices { #expect(AudioKeeping(storedValue: choice.storedValue) == choice) }
        #expect(AudioKeeping(storedValue: nil) == .days(30))
        #expect(AudioKeeping.choices.map(\.label) == ["30 days", "7 days", "1 year", "Always"])
    }
}
