import Foundation
import MyDayModels
import Testing

@testable import MyDayKit

@Suite struct StatusPillTests {
    @Test func aTranscriptThatNeedsALookSaysSoAndAReadableOneSaysNothing() {
        let id = UUID()
        var entry = LocalEntry(
            id: id, createdAt: Date(timeIntervalSince1970: 0), timeZone: "UTC", duration: 31, kind: .audio,
            state: .transcribed, filename: "x.m4a", transcriptClean: "Thank you.")
        #expect(StatusPill(entry) == nil)
        entry.reviewReason = "Only “Thank you.” was heard in 31 seconds of audio."
        #expect(StatusPill(entry) == .needsReview && StatusPill(entry)?.text == "Check the words")
        // Not yet transcribed: the state's own pill
        entry.state = .transcribing
        #expect(StatusPill(entry) == .transcribing(percent: nil))
        // And the server's mark reaches the device
        let server = ServerEntry(
            id: id, createdAt: entry.createdAt, timeZone: "UTC", duration: 31, kind: .audio, status: .transcribed,
            filename: "x.m4a", reviewReason: "A loop.", updatedAt: entry.createdAt)
        #expect(LocalEntry(server, audioPath: nil).reviewReason == "A loop.")
    }

    @Test func aLongRecordingBeingTranscribedSaysHowFarTheServerIs() throws {
        // Given a long recording the server is transcribing, and has heard 40% of
        let server = ServerEntry(
            id: UUID(), createdAt: Date(timeIntervalSince1970: 0), timeZone: "UTC", duration: 1_800, kind: .audio,
            status: .transcribing, filename: "x.m4a", transcriptionPercent: 40, updatedAt: Date(timeIntervalSince1970: 0))
        // Then the device shows it, in the Library's pill and in the entry
        var entry = LocalEntry(server, audioPath: nil)
        #expect(StatusPill(entry)?.text == "Transcribing… 40%")
        // And once the words are there, no pill and no percentage
        var done = server
        done.status = .transcribed
        done.transcriptionPercent = nil
        done.transcriptClean = "Words."
        entry = LocalEntry(done, audioPath: nil)
        #expect(StatusPill(entry) == nil && entry.transcriptionPercent == nil)
    }
}
