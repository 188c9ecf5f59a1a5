import Foundation
import MyDayKit
import Testing

@MainActor
@Suite("Recorder: stop hint and announcements", .timeLimit(.minutes(1)))
struct RecorderHintAndAnnouncementTests {
    @Test func stopHintIsShownDuringTheFirstRecordingOnly() async {
        // Given a hint store that has never shown the hint
        let harness = RecorderHarness(hasShownStopHint: false)
        #expect(!harness.recorder.showsStopHint)

        // When the first recording starts
        await harness.startRecording(at: 100)

        // Then the hint shows, is remembered as shown, and stays while paused
        #expect(harness.recorder.showsStopHint)
        #expect(harness.hints.hasShownStopHint)
        harness.capture.expect(.pause)
        await harness.recorder.tap()
        #expect(harness.recorder.showsStopHint)

        // When it is stopped
        harness.capture.expect(.stop)
        await harness.recorder.stop()

        // Then the hint is gone
        #expect(!harness.recorder.showsStopHint)

        // When a second recording starts
        await harness.startRecording(number: 2, at: 200)

        // Then the hint does not show again
        #expect(!harness.recorder.showsStopHint)
        #expect(Recorder.stopHintText == "Tip: Long-press ~3s to stop.")
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func stopHintIsNotShownWhenTheStoreRemembersIt() async {
        // Given a hint store that has shown the hint before
        let harness = RecorderHarness(hasShownStopHint: true)

        // When a recording starts
        await harness.startRecording(at: 100)

        // Then the hint does not show
        #expect(!harness.recorder.showsStopHint)
    }

    @Test func transitionsAreAnnounced() async {
        // Given an idle recorder with nothing to announce
        let harness = RecorderHarness()
        #expect(harness.recorder.announcement == nil)

        // When it records, pauses, resumes, is interrupted and saves
        // Then each transition is announced
        await harness.startRecording(at: 100)
        #expect(harness.recorder.announcement == "Recording")
        harness.capture.expect(.pause)
        await harness.recorder.tap()
        #expect(harness.recorder.announcement == "Paused")
        harness.capture.expect(.resume)
        await harness.recorder.tap()
        #expect(harness.recorder.announcement == "Recording")
        harness.capture.expect(.pause)
        await harness.send(.interrupted(reason: "Phone call")) { harness.recorder.state }
        #expect(harness.recorder.announcement == "Interrupted")
        harness.capture.expect(.stop)
        await harness.recorder.stop()
        #expect(harness.recorder.announcement == "Saved")
        harness.capture.verifyAllExpectedCallsReceived()
    }
}
