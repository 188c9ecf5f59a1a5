import Foundation
import MyDayKit
import Testing

@MainActor
@Suite("Recorder: long press to stop", .timeLimit(.minutes(1)))
struct RecorderLongPressTests {
    @Test func holdingForTheHoldDurationStopsAndTheHoldIsNotRecorded() async {
        // Given a recording with the button pressed at uptime 110: the capture pauses at once
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        harness.time.current = 110
        await harness.recorder.pressBegan()
        #expect(harness.recorder.elapsed(at: 112) == 10)

        // When frames tick just before 3 s
        await harness.recorder.holdTick(at: 112.9)

        // Then the recording goes on, showing the progress
        #expect(harness.recorder.state == .recording)
        #expect(abs(harness.recorder.holdProgress(at: 112.9) - 0.9667) < 0.001)

        // When a frame ticks at 3 s
        harness.capture.expect(.stop)
        harness.time.current = 113
        await harness.recorder.holdTick(at: 113)

        // Then the recording is saved with the 10 s before the press: the 3 s of holding are not part of it
        guard case .saved(let result) = harness.recorder.state else {
            Issue.record("Expected saved, got \(harness.recorder.state)")
            return
        }
        #expect(result.duration == 10)
        #expect(harness.recorder.stopHoldDuration == 3)

        // When the finger lifts afterwards
        harness.time.current = 113.2
        await harness.recorder.pressEnded()

        // Then nothing else happens: no new recording starts
        #expect(harness.recorder.state == .saved(result))
        #expect(harness.recorder.holdProgress(at: 113.2) == 0)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func releasingEarlyRecordsOnWithoutTheHeldTime() async {
        // Given a recording with the button pressed at uptime 110
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        harness.time.current = 110
        await harness.recorder.pressBegan()
        await harness.recorder.holdTick(at: 111.5)
        #expect(harness.recorder.holdProgress(at: 111.5) == 0.5)

        // When the finger lifts after 1.5 s
        harness.capture.expect(.resume)
        harness.time.current = 111.5
        await harness.recorder.pressEnded()

        // Then progress is back to 0, it records again, unannounced, and the 1.5 s held (not captured) do not count
        #expect(harness.recorder.holdProgress(at: 111.5) == 0)
        #expect(harness.recorder.state == .recording)
        #expect(harness.recorder.announcement == "Recording")
        #expect(harness.capture.receivedCalls == [.start(Fixture.file(1)), .pause, .resume])
        #expect(harness.recorder.elapsed(at: 112.5) == 11)

        // When later frames tick
        await harness.recorder.holdTick(at: 120)

        // Then the cancelled press does not stop the recording
        #expect(harness.recorder.state == .recording)
    }

    @Test func shortPressTogglesPause() async {
        // Given a recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)

        // When the button is pressed for 0.1 s
        harness.capture.expect(.pause)
        harness.time.current = 110
        await harness.recorder.pressBegan()
        harness.time.current = 110.1
        await harness.recorder.pressEnded()

        // Then it is paused from the moment of the press, once
        #expect(harness.recorder.state == .paused)
        #expect(harness.recorder.announcement == "Paused")
        #expect(harness.recorder.elapsed(at: 115) == 10)

        // When it is pressed for 0.1 s again
        harness.capture.expect(.resume)
        harness.time.current = 120
        await harness.recorder.pressBegan()
        harness.time.current = 120.1
        await harness.recorder.pressEnded()

        // Then it records again
        #expect(harness.recorder.state == .recording)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func releasingAfterTheHoldDurationStopsEvenWithoutATick() async {
        // Given a paused recording with the button pressed at uptime 110
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        harness.time.current = 105
        await harness.recorder.tap()
        harness.time.current = 110
        await harness.recorder.pressBegan()

        // When the finger lifts after 3.5 s with no frame having ticked
        harness.capture.expect(.stop)
        harness.time.current = 113.5
        await harness.recorder.pressEnded()

        // Then the recording is saved with the 5 s recorded before the pause
        guard case .saved(let result) = harness.recorder.state else {
            Issue.record("Expected saved, got \(harness.recorder.state)")
            return
        }
        #expect(result.duration == 5)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func anyPressWhileIdleStartsARecording() async {
        // Given an idle recorder
        let harness = RecorderHarness()

        // When the button is held for 2 s
        harness.capture.expect(.start(Fixture.file(1)))
        harness.time.current = 100
        await harness.recorder.pressBegan()
        #expect(harness.recorder.holdProgress(at: 101) == 0)
        harness.time.current = 102
        await harness.recorder.pressEnded()

        // Then a recording starts
        #expect(harness.recorder.state == .recording)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func tickWhileIdleDoesNothing() async {
        // Given an idle recorder whose capture expects no calls
        let harness = RecorderHarness()
        await harness.recorder.pressBegan()

        // When frames tick long after the press began
        await harness.recorder.holdTick(at: 1_000)

        // Then nothing happens until the finger lifts
        #expect(harness.recorder.state == .idle)
        #expect(harness.capture.receivedCalls.isEmpty)
    }
}
