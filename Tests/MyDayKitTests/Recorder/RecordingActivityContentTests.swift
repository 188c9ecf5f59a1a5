import Foundation
import MyDayKit
import Testing

@Suite struct RecordingActivityContentTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aRecordingClockCountsFromWhenTheRecordedTimeBegan() throws {
        // Given 65 s recorded
        let content = try #require(RecordingActivityContent(state: .recording, elapsed: 65, now: now))
        // Then the clock counts on its own from 65 s ago, and the button pauses
        #expect(content.isCounting && content.countingSince == now.addingTimeInterval(-65))
        #expect(content.elapsedText == "1:05" && content.status == "Recording" && content.pauseLabel == "Pause")
    }

    @Test func aPausedClockStandsAndSaysWhoPausedIt() throws {
        // Given a recording the person paused, and one the system paused
        let paused = try #require(RecordingActivityContent(state: .paused, elapsed: 12, now: now))
        let interrupted = try #require(RecordingActivityContent(state: .interrupted, elapsed: 12, now: now))
        // Then neither clock runs, both offer Resume, and the system's pause says what happened
        #expect(!paused.isCounting && !interrupted.isCounting)
        #expect(paused.pauseLabel == "Resume" && interrupted.pauseLabel == "Resume")
        #expect(paused.status == "Paused" && interrupted.status.contains("took the microphone"))
        #expect(paused.phase == .paused && interrupted.phase == .interrupted)
    }

    @Test func withNoRecordingUnderWayThereIsNothingToShow() {
        for state: RecorderState in [.idle, .stopping, .failed("The encoder stopped.")] {
            #expect(RecordingActivityContent(state: state, elapsed: 3, now: now) == nil, "\(state)")
        }
    }
}
