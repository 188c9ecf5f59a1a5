import Foundation
import Observation

/// Drives an `AudioCapture` through a recording's life and exposes what the recording screen shows.
///
/// Operations that reach the capture run one after another in the order they were asked for,
/// so a quick double tap pauses and then resumes instead of racing.
@MainActor
@Observable
public final class Recorder {
    /// Shown during the first recording only, to teach the long-press-to-stop gesture.
    public static let stopHintText = "Tip: Long-press ~3s to stop."

    public private(set) var state: RecorderState = .idle
    /// Recent input levels for the waveform, fed by the capture's `.level` events while recording.
    public private(set) var levels: WaveformLevels
    /// What VoiceOver should announce about the latest transition.
    public private(set) var announcement: String?
    /// The longest recording the server keeps (`max_recording_seconds`), nil while unknown: a recording says so a
    /// minute before, then stops just short of it and is saved, rather than be refused once it is longer.
    public var longestRecording: TimeInterval?
    /// Called when a recording stopped at `longestRecording` was saved, for its owner to keep it as it keeps one stopped
    /// by the person.
    @ObservationIgnored public var savedAtTheLongest: (@MainActor () async -> Void)?

    private var clock = RecordingClock()
    private var hintBelongsToCurrentRecording = false

    @ObservationIgnored private var session: (id: UUID, startedAt: Date, file: URL)?
    @ObservationIgnored private var longPress: LongPressStop
    @ObservationIgnored private var pressStartsRecording = false
    /// The capture was paused when the current press began, so the press itself is not recorded.
    @ObservationIgnored private var captureHeldForPress = false
    /// The system interrupted a recording that was recording (not one the person had paused).
    @ObservationIgnored private var resumesWhenInterruptionEnds = false
    @ObservationIgnored private var lastOperation: Task<Void, Never>?
    @ObservationIgnored private var eventsTask: Task<Void, Never>?
    /// The current recording has said it has a minute left.
    @ObservationIgnored private var warnedOfLength = false

    private let capture: any AudioCapture
    private let hintStore: any HintStore
    private let now: @Sendable () -> Date
    private let uptime: @Sendable () -> TimeInterval
    private let prepareFile: @Sendable (_ id: UUID, _ startedAt: Date) throws -> URL
    private let newID: @Sendable () -> UUID
    private let timeZone: TimeZone

    /// - Parameters:
    ///   - now: The wall clock, for `RecordingResult.startedAt`.
    ///   - uptime: A monotonic clock in seconds, for durations and the long press.
    ///   - prepareFile: Where the capture writes the recording with this id and start, for example
    ///     `RecordingLibrary.beginRecording`, which also notes the start for recovery after a crash.
    public init(
        capture: any AudioCapture,
        hintStore: any HintStore,
        now: @escaping @Sendable () -> Date = { Date() },
        uptime: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime },
        prepareFile: @escaping @Sendable (_ id: UUID, _ startedAt: Date) throws -> URL,
        newID: @escaping @Sendable () -> UUID = { UUID() },
        timeZone: TimeZone = .current,
        stopHoldDuration: TimeInterval = 3,
        tapThreshold: TimeInterval = 0.3,
        levels: WaveformLevels = WaveformLevels()
    ) {
        self.capture = capture
        self.hintStore = hintStore
        self.now = now
        self.uptime = uptime
        self.prepareFile = prepareFile
        self.newID = newID
        self.timeZone = timeZone
        self.longPress = LongPressStop(holdDuration: stopHoldDuration, tapThreshold: tapThreshold)
        self.levels = levels
        listenToCaptureEvents()
    }

    deinit {
        eventsTask?.cancel()
    }

    /// True while the first recording ever made is under way; the hint is never shown again after it.
    public var showsStopHint: Bool {
        hintBelongsToCurrentRecording && state.isActive
    }

    public var stopHoldDuration: TimeInterval {
        longPress.holdDuration
    }

    /// Recorded time of the current or last recording, excluding pauses and interruptions.
    public var elapsed: TimeInterval {
        elapsed(at: uptime())
    }

    public func elapsed(at uptime: TimeInterval) -> TimeInterval {
        clock.elapsed(at: uptime)
    }

    /// Starts a recording when none is under way, otherwise toggles between recording and paused.
    public func tap() async {
        await serially { [self] in
            switch state {
            case .idle, .saved, .failed:
                await startRecording()
            case .recording:
                await pauseRecording()
            case .paused, .interrupted:
                await resumeRecording()
            case .stopping:
                break
            }
        }
    }

    /// Finishes the recording under way and saves it; does nothing when none is under way.
    public func stop() async {
        await serially { [self] in
            await stopRecording()
        }
    }

    /// Back to idle after a saved or failed recording; does nothing in other states.
    public func reset() {
        switch state {
        case .saved, .failed:
            break
        case .idle, .recording, .paused, .stopping, .interrupted:
            return
        }
        clock = RecordingClock()
        levels.reset()
        session = nil
        state = .idle
        announcement = nil
    }

    // MARK: - Long press to stop

    /// The finger went down on the record button. While recording, the capture pauses at once: a press may turn into
    /// the hold that stops, and the hold is no part of the recording. A tap then leaves the recording paused from the
    /// moment of the press; a press let go before the hold completes records on.
    public func pressBegan() async {
        if state.isActive {
            let pressedAt = uptime()
            longPress.began(at: pressedAt)
            await serially { [self] in
                guard state == .recording, !captureHeldForPress else { return }
                clock.pause(at: pressedAt)
                await capture.pause()
                captureHeldForPress = true
            }
        } else if state.canStart {
            pressStartsRecording = true
        }
    }

    /// The finger lifted: a short press is a tap, a completed hold stops, anything between changes nothing.
    public func pressEnded() async {
        if pressStartsRecording {
            pressStartsRecording = false
            await tap()
            return
        }
        let release = longPress.release(at: uptime())
        await serially { [self] in
            let held = captureHeldForPress
            captureHeldForPress = false
            guard state.isActive else { return }
            switch release {
            case .tap where held && state == .recording:
                enter(.paused, announcing: "Paused")
            case .tap where state == .recording:
                await pauseRecording()
            case .tap:
                await resumeRecording()
            case .completed:
                await stopRecording()
            case .cancelled where held:
                await resumeRecording(announcing: false)
            case .cancelled:
                break
            }
        }
    }

    /// How far the hold to stop has got, 0…1.
    public func holdProgress(at uptime: TimeInterval) -> Double {
        state.isActive ? longPress.progress(at: uptime) : 0
    }

    /// Called every frame while the button is held; stops the recording once the hold is complete.
    public func holdTick(at uptime: TimeInterval) async {
        guard state.isActive, longPress.isComplete(at: uptime) else {
            return
        }
        longPress.cancel()
        await stop()
    }

    // MARK: - Transitions

    private func startRecording() async {
        let id = newID()
        let startedAt = now()
        clock = RecordingClock()
        levels.reset()
        warnedOfLength = false
        let file: URL
        do {
            file = try prepareFile(id, startedAt)
            try await capture.start(writingTo: file)
        } catch {
            fail(because: Self.reason(for: error))
            return
        }
        session = (id: id, startedAt: startedAt, file: file)
        clock = RecordingClock.started(at: uptime())
        hintBelongsToCurrentRecording = !hintStore.hasShownStopHint
        if hintBelongsToCurrentRecording {
            hintStore.markStopHintShown()
        }
        enter(.recording, announcing: "Recording")
    }

    private func pauseRecording() async {
        clock.pause(at: uptime())
        await capture.pause()
        enter(.paused, announcing: "Paused")
    }

    /// Resumes the capture and the clock; `announcing` false for a press let go before it stopped anything, after
    /// which recording simply goes on.
    private func resumeRecording(announcing: Bool = true) async {
        do {
            try await capture.resume()
        } catch {
            fail(because: Self.reason(for: error))
            return
        }
        clock.resume(at: uptime())
        if announcing { enter(.recording, announcing: "Recording") }
    }

    private func stopRecording() async {
        captureHeldForPress = false
        guard state.isActive, let session else {
            return
        }
        clock.pause(at: uptime())
        longPress.cancel()
        state = .stopping
        do {
            try await capture.stop()
        } catch {
            fail(because: Self.reason(for: error))
            return
        }
        let result = RecordingResult(
            id: session.id,
            startedAt: session.startedAt,
            timeZoneIdentifier: timeZone.identifier,
            duration: clock.elapsed(at: uptime()),
            file: session.file
        )
        self.session = nil
        enter(.saved(result), announcing: "Saved")
    }

    private func interrupt() async {
        switch state {
        case .recording:
            clock.pause(at: uptime())
            await capture.pause()
            resumesWhenInterruptionEnds = true
        case .paused:
            resumesWhenInterruptionEnds = false
        case .idle, .stopping, .saved, .failed, .interrupted:
            return
        }
        enter(.interrupted, announcing: "Interrupted")
    }

    private func fail(because reason: String) {
        clock.pause(at: uptime())
        longPress.cancel()
        session = nil
        enter(.failed(reason), announcing: "Recording failed: \(reason)")
    }

    private func enter(_ newState: RecorderState, announcing text: String) {
        state = newState
        announcement = text
    }

    private static func reason(for error: any Error) -> String {
        error.localizedDescription
    }

    // MARK: - Capture events and ordering

    private func listenToCaptureEvents() {
        eventsTask = Task { @MainActor [weak self, events = capture.events] in
            for await event in events {
                guard let self else {
                    return
                }
                await self.handle(event)
            }
        }
    }

    private func handle(_ event: AudioCaptureEvent) async {
        switch event {
        case .level(let rms):
            if state == .recording {
                levels.append(rms: rms)
                await checkLength()
            }
        case .interrupted:
            await serially { [self] in
                await interrupt()
            }
        case .interruptionEnded(let shouldResume):
            // A recording the system paused goes on by itself when the system says it may: a call that ends does not
            // leave it paused until the app is opened. One the person had paused stays paused.
            await serially { [self] in
                guard state == .interrupted, shouldResume, resumesWhenInterruptionEnds else { return }
                resumesWhenInterruptionEnds = false
                await resumeRecording()
                if state == .recording { announcement = "Recording again after the interruption" }
            }
        case .failed(let reason):
            await serially { [self] in
                if state.isActive {
                    fail(because: reason)
                }
            }
        }
    }

    /// How far short of `longestRecording` a recording stops: the capture's levels come a few times a second and a
    /// container's length may round up, so one stopped exactly there could be a fraction too long to keep.
    public static let stopsShortOfTheLongestBy: TimeInterval = 2

    /// Says when a minute is left of the longest recording the server keeps, and stops and saves it there.
    private func checkLength() async {
        guard let longest = longestRecording else { return }
        let left = longest - elapsed
        if left <= Self.stopsShortOfTheLongestBy {
            await serially { [self] in
                guard state == .recording else { return }
                await stopRecording()
                guard case .saved = state else { return }
                announcement = "Stopped: My Day keeps recordings of up to \(formattedDuration(longest)). Saved."
                await savedAtTheLongest?()
            }
        } else if left <= 60, !warnedOfLength {
            warnedOfLength = true
            announcement = "One minute left: My Day keeps recordings of up to \(formattedDuration(longest))."
        }
    }

    /// Runs `operation` after every operation asked for earlier has finished.
    private func serially(_ operation: @escaping @MainActor () async -> Void) async {
        let previous = lastOperation
        let current = Task { @MainActor in
            await previous?.value
            await operation()
        }
        lastOperation = current
        await current.value
        if lastOperation == current {
            lastOperation = nil
        }
    }
}
