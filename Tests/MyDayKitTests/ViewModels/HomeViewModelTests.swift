import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

@MainActor
@Suite struct HomeViewModelTests {
    let harness = CoreHarness()

    private func model(
        _ capture: any AudioCapture = FileWritingCapture(), time: ManualUptime = ManualUptime(0),
        transcriber: (any DeviceTranscriber)? = nil, inForeground: Bool = true, client: FakeMyDayClient = FakeMyDayClient()
    ) -> HomeViewModel {
        let core = harness.core(client)
        let library = core.library
        let recorder = Recorder(
            capture: capture, hintStore: InMemoryHintStore(hasShownStopHint: false), now: { Given.now }, uptime: { time.current },
            prepareFile: { id, start in try library.beginRecording(id: id, startedAt: start, timeZone: Given.paris) },
            timeZone: Given.paris)
        return HomeViewModel(
            core: core, recorder: recorder, deviceTranscriber: { transcriber }, isInForeground: { inForeground })
    }

    @Test func aLongPressStopsAndTheRecordingJoinsTheQueue() async throws {
        // Given a recording started with a tap
        let time = ManualUptime(10)
        let home = model(time: time)
        #expect(home.recordButtonLabel == "Record")
        await home.recordButtonTapped()
        #expect(home.recordButtonLabel == "Recording — tap to pause")
        #expect(home.stopHint == "Tip: Long-press ~3s to stop.")
        // When the button is held for 3 s after 20 s of recording
        time.current = 30
        #expect(home.elapsedText(at: 30) == "0:20")
        await home.pressBegan()
        time.current = 31.5
        await home.holdTick(at: 31.5)
        #expect(home.recorder.holdProgress(at: 31.5) == 0.5)
        time.current = 33
        await home.holdTick(at: 33)
        // Then the recording is saved, in the library and queued, with its file
        guard case .saved(let result) = home.recorder.state else {
            Issue.record("not saved: \(home.recorder.state)")
            return
        }
        let entry = try #require(try harness.store.entry(result.id))
        #expect(entry.state == .queued)
        #expect(entry.filename.hasSuffix(".m4a"))
        #expect(FileManager.default.fileExists(atPath: harness.library.url(of: try #require(entry.audioPath)).path))
        #expect(try harness.store.pendingUploads().count == 1)
        #expect(home.recordButtonLabel == "Record")
    }

    @Test func aRecordingSaysWhenAMinuteIsLeftThenStopsJustShortOfTheServersLongestAndJoinsTheQueue() async throws {
        // Given a server that keeps recordings of up to 10 minutes, and a recording started at 0
        var client = FakeMyDayClient()
        client.onMaxRecordingSeconds = { 600 }
        let (capture, time) = (FileWritingCapture(), ManualUptime(0))
        let home = model(capture, time: time, client: client)
        let toldTheApp = CallCounter()
        home.stoppedByItself = { toldTheApp.increment() }
        await home.learnTheLongestRecording()
        await home.recordButtonTapped()

        // When the microphone's levels come in at 8 minutes, then at 9: it records on, and says a minute is left
        time.current = 480
        try await send(.level(0.1), from: capture, andWaitForChangeOf: { home.recorder.levels })
        #expect(home.recorder.announcement == "Recording")
        time.current = 540
        try await send(.level(0.1), from: capture, andWaitForChangeOf: { home.recorder.announcement })
        #expect(home.recorder.state == .recording)
        #expect(home.recorder.announcement == "One minute left: My Day keeps recordings of up to 10:00.")

        // When a level comes 1.5 s before the end
        time.current = 598.5
        try await send(.level(0.1), from: capture, andWaitForChangeOf: { home.awaitingHandOver })

        // Then it stopped there, said why, and the recording is in the diary, queued, as long as it is
        guard case .saved(let result) = home.recorder.state else {
            Issue.record("not saved: \(home.recorder.state)")
            return
        }
        #expect(result.duration == 598.5)
        #expect(home.recorder.announcement == "Stopped: My Day keeps recordings of up to 10:00. Saved.")
        #expect(try harness.store.entry(result.id)?.state == .queued)
        #expect(try harness.store.pendingUploads().map(\.entry.id) == [result.id])
        // And the app was told, once
        try await pollUntil("the app was told") { toldTheApp.count == 1 }
    }

    @Test func whileTheServerCannotBeAskedARecordingHasNoEnd() async throws {
        // Given a server that cannot be reached when Home asks for the longest recording
        var client = FakeMyDayClient()
        client.onMaxRecordingSeconds = { throw URLError(.notConnectedToInternet) }
        let (capture, time) = (FileWritingCapture(), ManualUptime(0))
        let home = model(capture, time: time, client: client)
        await home.learnTheLongestRecording()
        await home.recordButtonTapped()

        // When levels come in after five hours
        time.current = 5 * 3600
        try await send(.level(0.1), from: capture, andWaitForChangeOf: { home.recorder.levels })

        // Then it records on, as the person asked
        #expect(home.recorder.longestRecording == nil)
        #expect(home.recorder.state == .recording)
        #expect(try harness.store.entries().isEmpty)
    }

    /// Sends a capture event and waits until `observed` changes because of it.
    private func send<Value: Equatable>(
        _ event: AudioCaptureEvent, from capture: FileWritingCapture, andWaitForChangeOf observed: () -> Value
    ) async throws {
        let before = observed()
        capture.send(event)
        try await pollUntil("the recorder took \(event)") { observed() != before }
    }

    @Test func releasingEarlyKeepsRecordingAndTheVisibleStopWorksToo() async throws {
        let time = ManualUptime(0)
        let home = model(time: time)
        await home.recordButtonTapped()
        await home.pressBegan()
        time.current = 1.5
        await home.pressEnded()
        #expect(home.recorder.state == .recording)
        #expect(home.recorder.holdProgress(at: 1.6) == 0)
        await home.stopTapped()
        #expect(try harness.store.entries().count == 1)
    }

    @Test func theRecordingBarShowsEveryRecordingUnderWayAndItsControlsWork() async throws {
        // Given no recording: no bar
        let time = ManualUptime(0)
        let home = model(time: time)
        #expect(home.recordingBar == nil)

        // When a recording starts, then the bar says so and offers a pause
        await home.recordButtonTapped()
        #expect(home.recordingBar == .init(status: "Recording", pauseLabel: "Pause"))
        time.current = 4
        #expect(home.elapsedText(at: 4) == "0:04")

        // When its pause is used (the same action as the record button), then it offers to resume
        await home.recordButtonTapped()
        #expect(home.recordingBar == .init(status: "Paused", pauseLabel: "Resume"))
        time.current = 9
        #expect(home.elapsedText(at: 9) == "0:04")

        // When its stop is used, then the recording is kept and the bar goes away
        await home.stopTapped()
        #expect(home.recordingBar == nil)
        #expect(try harness.store.entries().count == 1)
    }

    @Test func aRecordingStoppedWithTheAppNotInFrontGoesUpWithoutWaitingForThePhonesWords() async throws {
        // Given on-device transcription on, and a recording stopped as the phone is locked
        let transcriber = ScriptedTranscriber()
        let time = ManualUptime(0)
        let home = model(time: time, transcriber: transcriber, inForeground: false)
        await home.recordButtonTapped()
        time.current = 5
        await home.stopTapped()

        // Then its upload waits for nothing: no transcription on the phone, the server transcribes it
        let upload = try #require(try harness.store.pendingUploads().first)
        #expect(!upload.upload.awaitsDeviceTranscript)
        #expect(transcriber.requests.isEmpty)

        // And the app holds on until the uploader has it (its first progress), then lets go
        #expect(home.isHandingOver)
        home.uploadEvent(.started(upload.entry.id))
        #expect(home.isHandingOver)
        home.uploadEvent(.progress(upload.entry.id, sent: 0, total: 1000))
        #expect(!home.isHandingOver)
    }

    @Test func inFrontTheUploadWaitsForThePhonesWords() async throws {
        // Given on-device transcription on and the app in front
        let transcriber = ScriptedTranscriber()
        let time = ManualUptime(0)
        let home = model(time: time, transcriber: transcriber)
        await home.recordButtonTapped()
        time.current = 5
        await home.stopTapped()

        // Then the upload waits for the phone's words, which are asked for
        #expect(try harness.store.pendingUploads().first?.upload.awaitsDeviceTranscript == true)
        try await pollUntil("the phone is asked for the words") { !transcriber.requests.isEmpty }
        #expect(!home.isHandingOver)
    }

    @Test func aDeniedMicrophoneSaysSoAndTypingStillWorks() async throws {
        // Given a microphone the person did not allow
        let home = model(FileWritingCapture(refusing: FakeCaptureError("Microphone access is off.")))
        await home.recordButtonTapped()
        #expect(home.recorder.state == .failed("Microphone access is off."))
        // When they type instead, then the entry is saved and queued
        home.isTypingInstead = true
        home.typedText = "  Wrote it down instead.  "
        #expect(await home.saveTypedEntry())
        #expect(try harness.store.entries().map(\.transcriptClean) == ["Wrote it down instead."])
        #expect(!home.isTypingInstead && home.typedText.isEmpty)
        home.typedText = " \n  "
        #expect(!home.canSaveTypedEntry)
        #expect(await home.saveTypedEntry() == false)
        home.typedText = "\nA line."
        #expect(home.canSaveTypedEntry)
    }

    @Test func theLockScreensPauseAndResumeDoWhatTheyShowedAndNeverStartARecording() async throws {
        // Given no recording under way
        let home = model()
        // When Resume and Pause come from a Live Activity or a notification left over from an earlier recording
        await home.pauseRequested(resume: true)
        await home.pauseRequested(resume: false)
        // Then nothing starts
        #expect(home.recorder.state == .idle)
        // Given a recording; a stale Resume leaves it recording, Pause pauses, a stale Pause leaves it paused
        await home.recordButtonTapped()
        await home.pauseRequested(resume: true)
        #expect(home.recorder.state == .recording)
        await home.pauseRequested(resume: false)
        #expect(home.recorder.state == .paused)
        await home.pauseRequested(resume: false)
        #expect(home.recorder.state == .paused)
        // And Resume goes on recording
        await home.pauseRequested(resume: true)
        #expect(home.recorder.state == .recording)
    }

    @Test func aTakeThatFailsBecomesAnEntryAtOnceAndTheControlDoesWhatItShowed() async throws {
        // Given a recording whose capture kept a WAV copy and then failed to finish the compressed file
        let home = model(WAVKeepingCapture())
        await home.recordingControlTapped(stop: true)
        #expect(home.recorder.state == .idle, "a stale Stop label starts nothing")
        await home.recordingControlTapped(stop: false)
        #expect(home.recorder.state == .recording)
        await home.recordingControlTapped(stop: true)
        guard case .failed = home.recorder.state else {
            Issue.record("not failed: \(home.recorder.state)")
            return
        }
        #expect(try harness.store.entries().isEmpty)

        // When the screen reports the change, then the WAV is a queued entry now, not at the next launch
        await home.recorderStateChanged()
        let entry = try #require(try harness.store.entries().first)
        #expect(entry.state == .queued && entry.filename.hasSuffix(".wav") && abs(entry.duration - 1.5) < 0.01)
        #expect(home.errorMessage == nil)
    }
}

/// A capture that writes the recording as a WAV copy beside its file, then fails to finish the file on stop.
private final class WAVKeepingCapture: AudioCapture, @unchecked Sendable {
    let events = AsyncStream<AudioCaptureEvent> { $0.finish() }

    func start(writingTo file: URL) async throws {
        try TestMedia.wav(seconds: 1.5, sizesWritten: false).write(to: RecordingLibrary.pcmCopy(of: file))
    }

    func pause() async {}
    func resume() async throws {}
    func stop() async throws { throw FakeCaptureError("The encoder stopped.") }
}
