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
        #expect(StatusPill(entry) == .transcribing)
        // And the server's mark reaches the device
        let server = ServerEntry(
            id: id, createdAt: entry.createdAt, timeZone: "UTC", duration: 31, kind: .audio, status: .transcribed,
            filename: "x.m4a", reviewReason: "A loop.", updatedAt: entry.createdAt)
        #expect(LocalEntry(server, audioPath: nil).reviewReason == "A loop.")
    }
}
