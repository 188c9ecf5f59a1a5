import Foundation
import MyDayKit
import Testing

@MainActor
@Suite("Recorder: capture events and failures", .timeLimit(.minutes(1)))
struct RecorderEventTests {
    @Test func interruptionPausesTheCaptureAndFreezesTime() async {
        // Given a recording started at uptime 100
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)

        // When the capture reports an interruption at 105
        harness.capture.expect(.pause)
        harness.time.current = 105
        await harness.send(.interrupted(reason: "Phone call")) { harness.recorder.state }

        // Then it is interrupted, the capture is paused and elapsed time stays at 5 s
        #expect(harness.recorder.state == .interrupted)
        #expect(harness.recorder.elapsed(at: 200) == 5)
        harness.capture.verifyAllExpectedCallsReceived()

        // When the user taps at 200
        harness.capture.expect(.resume)
        harness.time.current = 200
        await harness.recorder.tap()

        // Then it records again and time counts on from 5 s
        #expect(harness.recorder.state == .recording)
        #expect(harness.recorder.elapsed(at: 203) == 8)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func aRecordingTheSystemPausedGoesOnWhenTheSystemSaysItMay() async {
        // Given a recording interrupted by a call at 105
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        harness.time.current = 105
        await harness.send(.interrupted(reason: "Phone call")) { harness.recorder.state }

        // When the call ends and the system says the app may go on, at 300
        harness.capture.expect(.resume)
        harness.time.current = 300
        await harness.send(.interruptionEnded(shouldResume: true)) { harness.recorder.state }

        // Then it records again by itself, says so, and the call is no part of the time
        #expect(harness.recorder.state == .recording)
        #expect(harness.recorder.announcement == "Recording again after the interruption")
        #expect(harness.recorder.elapsed(at: 302) == 7)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func aRecordingThePersonPausedOrTheSystemKeepsStaysPaused() async {
        // Given a recording the person paused before a call interrupted it, and one the system paused and keeps
        let paused = RecorderHarness()
        await paused.startRecording(at: 100)
        paused.capture.expect(.pause)
        await paused.recorder.tap()
        await paused.send(.interrupted(reason: "Phone call")) { paused.recorder.state }
        let kept = RecorderHarness()
        await kept.startRecording(at: 100)
        kept.capture.expect(.pause)
        await kept.send(.interrupted(reason: "Another app recorded")) { kept.recorder.state }

        // When the interruptions end (the first with leave to go on, the second without)
        for (harness, shouldResume) in [(paused, true), (kept, false)] {
            harness.capture.send(.interruptionEnded(shouldResume: shouldResume))
            // (events are handled in order: once this failure shows, the end of the interruption was handled)
            await harness.send(.failed(reason: "The test is over")) { harness.recorder.state }
            // Then neither was resumed
            #expect(harness.capture.receivedCalls == [.start(Fixture.file(1)), .pause])
        }
    }

    @Test func interruptionWhilePausedDoesNotPauseTwice() async {
        // Given a paused recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        harness.time.current = 102
        await harness.recorder.tap()

        // When the capture reports an interruption
        await harness.send(.interrupted(reason: "Route change")) { harness.recorder.state }

        // Then it is interrupted without a second pause
        #expect(harness.recorder.state == .interrupted)
        #expect(harness.capture.receivedCalls == [.start(Fixture.file(1)), .pause])
    }

    @Test func startFailureReportsTheReasonAndATapRetries() async {
        // Given a capture that cannot start the first time
        let harness = RecorderHarness()
        harness.capture.expect(.start(Fixture.file(1)), throwing: FakeCaptureError("Microphone permission denied"))

        // When the user taps
        await harness.recorder.tap()

        // Then the recorder has failed with the capture's reason
        #expect(harness.recorder.state == .failed("Microphone permission denied"))
        #expect(harness.recorder.announcement == "Recording failed: Microphone permission denied")

        // When the user taps again
        // Then a new recording starts
        await harness.startRecording(number: 2, at: 100)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func stopFailureReportsFailed() async {
        // Given a recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)

        // When finishing the file fails
        harness.capture.expect(.stop, throwing: FakeCaptureError("Disk full"))
        await harness.recorder.stop()

        // Then the recorder has failed
        #expect(harness.recorder.state == .failed("Disk full"))
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func resumeFailureReportsFailed() async {
        // Given a paused recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        await harness.recorder.tap()

        // When resuming fails
        harness.capture.expect(.resume, throwing: FakeCaptureError("Microphone unavailable"))
        await harness.recorder.tap()

        // Then the recorder has failed
        #expect(harness.recorder.state == .failed("Microphone unavailable"))
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func failedEventFailsTheRecording() async {
        // Given a recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)

        // When the capture reports a failure at 104
        harness.time.current = 104
        await harness.send(.failed(reason: "Encoder error")) { harness.recorder.state }

        // Then the recorder has failed, time stopped and no further capture calls were made
        #expect(harness.recorder.state == .failed("Encoder error"))
        #expect(harness.recorder.elapsed(at: 200) == 4)
        #expect(harness.capture.receivedCalls == [.start(Fixture.file(1))])
    }

    @Test func levelsAreForwardedToTheWaveform() async {
        // Given a recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)

        // When the capture reports the RMS of a -30 dBFS buffer
        await harness.send(.level(Float(pow(10, -30.0 / 20)))) { harness.recorder.levels }

        // Then the newest bar is half full
        let newest = harness.recorder.levels.bars.last ?? -1
        #expect(abs(newest - 0.5) < 0.0001)
    }

    @Test func levelsAreIgnoredWhilePaused() async {
        // Given a paused recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        await harness.recorder.tap()

        // When a level arrives, followed by an event that changes the state
        harness.capture.send(.level(1))
        await harness.send(.failed(reason: "Encoder error")) { harness.recorder.state }

        // Then the level, handled before the failure, did not reach the waveform
        #expect(harness.recorder.levels.bars.allSatisfy { $0 == 0 })
    }
}
