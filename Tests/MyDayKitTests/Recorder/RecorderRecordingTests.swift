import Foundation
import MyDayKit
import Testing

@MainActor
@Suite("Recorder: recording, pausing and stopping", .timeLimit(.minutes(1)))
struct RecorderRecordingTests {
    @Test func happyPathSavesARecordingWithoutThePausedTime() async {
        // Given a recording started at uptime 100
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)

        // When it is paused at 110, resumed at 130 and stopped at 135
        harness.capture.expect(.pause)
        harness.time.current = 110
        await harness.recorder.tap()
        harness.capture.expect(.resume)
        harness.time.current = 130
        await harness.recorder.tap()
        harness.capture.expect(.stop)
        harness.time.current = 135
        await harness.recorder.stop()

        // Then it is saved with 15 s of recorded time and the injected id, date, zone and file
        let expected = RecordingResult(
            id: Fixture.id(1),
            startedAt: Fixture.startDate,
            timeZoneIdentifier: "Europe/Zurich",
            duration: 15,
            file: Fixture.file(1)
        )
        #expect(harness.recorder.state == .saved(expected))
        #expect(harness.capture.receivedCalls == [.start(Fixture.file(1)), .pause, .resume, .stop])
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func tapTogglesPauseAndFreezesElapsedTime() async {
        // Given a recording started at uptime 100
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)

        // When it is tapped at 104
        harness.capture.expect(.pause)
        harness.time.current = 104
        await harness.recorder.tap()

        // Then it is paused and elapsed time stays at 4 s
        #expect(harness.recorder.state == .paused)
        #expect(harness.recorder.elapsed(at: 150) == 4)

        // When it is tapped again at 150
        harness.capture.expect(.resume)
        harness.time.current = 150
        await harness.recorder.tap()

        // Then it records again and time counts on from 4 s
        #expect(harness.recorder.state == .recording)
        #expect(harness.recorder.elapsed(at: 152) == 6)
        harness.time.current = 153
        #expect(harness.recorder.elapsed == 7)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func stopWhileIdleDoesNothing() async {
        // Given an idle recorder whose capture expects no calls
        let harness = RecorderHarness()

        // When stop is asked for
        await harness.recorder.stop()

        // Then nothing happens
        #expect(harness.recorder.state == .idle)
        #expect(harness.capture.receivedCalls.isEmpty)
    }

    @Test func stopFromInterruptedSaves() async {
        // Given a recording interrupted after 5 s
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        harness.time.current = 105
        await harness.send(.interrupted(reason: "Phone call")) { harness.recorder.state }

        // When it is stopped much later
        harness.capture.expect(.stop)
        harness.time.current = 300
        await harness.recorder.stop()

        // Then the saved duration is the 5 s recorded before the interruption
        guard case .saved(let result) = harness.recorder.state else {
            Issue.record("Expected saved, got \(harness.recorder.state)")
            return
        }
        #expect(result.duration == 5)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func resetAfterSavingReturnsToIdleAndTapStartsANewRecording() async {
        // Given a saved recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.stop)
        harness.time.current = 110
        await harness.recorder.stop()

        // When the recorder is reset
        harness.recorder.reset()

        // Then it is idle with no elapsed time
        #expect(harness.recorder.state == .idle)
        #expect(harness.recorder.elapsed(at: 500) == 0)

        // When it is tapped
        // Then a second recording with a new id and file starts
        await harness.startRecording(number: 2, at: 200)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func tapAfterSavingStartsANewRecording() async {
        // Given a saved recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.stop)
        harness.time.current = 110
        await harness.recorder.stop()

        // When it is tapped without a reset
        // Then a second recording starts and its time counts from zero
        await harness.startRecording(number: 2, at: 200)
        #expect(harness.recorder.elapsed(at: 201) == 1)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func quickDoubleTapPausesThenResumesInOrder() async {
        // Given a recording
        let harness = RecorderHarness()
        await harness.startRecording(at: 100)
        harness.capture.expect(.pause)
        harness.capture.expect(.resume)

        // When two taps arrive at once
        let recorder = harness.recorder
        async let first: Void = recorder.tap()
        async let second: Void = recorder.tap()
        _ = await (first, second)

        // Then the capture is paused and then resumed
        #expect(harness.recorder.state == .recording)
        harness.capture.verifyAllExpectedCallsReceived()
    }

    @Test func recorderIsReleasedWhileListeningToEvents() async {
        // Given a recorder whose event loop has handled an event
        weak var released: Recorder?
        do {
            let harness = RecorderHarness()
            await harness.startRecording(at: 100)
            await harness.send(.level(1)) { harness.recorder.levels }
            harness.capture.verifyAllExpectedCallsReceived()
            released = harness.recorder
        }

        // When the last reference to it goes away
        // Then it is freed despite its event loop
        #expect(released == nil)
    }
}
