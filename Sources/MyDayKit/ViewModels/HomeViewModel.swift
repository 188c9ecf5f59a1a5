import Foundation
import Observation

/// The Home screen: the record button (tap, pause, long-press stop), the waveform, elapsed time and "Type instead".
@MainActor
@Observable
public final class HomeViewModel {
    public let recorder: Recorder
    /// The text of "Type instead".
    public var typedText = ""
    public var isTypingInstead = false
    public private(set) var errorMessage: String?

    /// Saved recordings whose upload has not been handed to the uploader yet: the app keeps background time meanwhile,
    /// so a recording stopped just before the phone is locked leaves at once instead of at the next launch.
    public private(set) var awaitingHandOver: Set<UUID> = []
    public var isHandingOver: Bool { !awaitingHandOver.isEmpty }

    private let core: ClientCore
    private let locale: Locale
    private let deviceTranscriber: @MainActor () -> (any DeviceTranscriber)?
    private let isInForeground: @MainActor () -> Bool
    @ObservationIgnored private var keptRecordings: Set<UUID> = []

    /// - Parameters:
    ///   - deviceTranscriber: Asked when a recording is saved: a transcriber to run on the device before the upload
    ///     (the person's setting), or nil to leave transcription to the server.
    ///   - isInForeground: Whether the app is in front. A recording saved while it is not (the phone locked right after
    ///     Stop) goes up at once and the server transcribes it: waiting for the phone's words would hold the upload
    ///     in an app about to be suspended.
    public init(
        core: ClientCore, recorder: Recorder, locale: Locale = .current,
        deviceTranscriber: @escaping @MainActor () -> (any DeviceTranscriber)? = { nil },
        isInForeground: @escaping @MainActor () -> Bool = { true }
    ) {
        self.core = core
        self.recorder = recorder
        self.locale = locale
        self.deviceTranscriber = deviceTranscriber
        self.isInForeground = isInForeground
        recorder.savedAtTheLongest = { [weak self] in
            await self?.keepIfSaved()
            self?.stoppedByItself?()
        }
    }

    /// Called once a recording that stopped by itself (at the longest the server keeps) is kept: the app updates what
    /// shows a recording under way outside Home (the Live Activity, the Lock Screen control), the phone perhaps locked.
    @ObservationIgnored public var stoppedByItself: (@MainActor () -> Void)?

    /// Asks the server for the longest recording it keeps, where the recorder then stops; while it cannot be asked
    /// (offline), a recording has no such end.
    public func learnTheLongestRecording() async {
        guard let seconds = try? await core.client.maxRecordingSeconds() else { return }
        recorder.longestRecording = TimeInterval(seconds)
    }

    /// A Home screen whose recordings are written into `core`'s library, so a crash leaves them recoverable,
    /// tagged with `locale`'s language as the hint for transcription.
    public convenience init(
        core: ClientCore, capture: any AudioCapture, hintStore: any HintStore, locale: Locale = .current,
        deviceTranscriber: @escaping @MainActor () -> (any DeviceTranscriber)? = { nil },
        isInForeground: @escaping @MainActor () -> Bool = { true }
    ) {
        let library = core.library
        let language = Self.languageTag(of: locale)
        let recorder = Recorder(
            capture: capture, hintStore: hintStore,
            prepareFile: { id, startedAt in
                try library.beginRecording(id: id, startedAt: startedAt, timeZone: .current, language: language)
            })
        self.init(
            core: core, recorder: recorder, locale: locale, deviceTranscriber: deviceTranscriber,
            isInForeground: isInForeground)
    }

    /// Follows the upload queue's reports: a recording's upload under way (its first progress), finished, refused or
    /// put off no longer needs the app kept awake for it; a queue that stopped (offline, no session) hands nothing over.
    public func uploadEvent(_ event: UploadEvent) {
        switch event {
        case .progress(let id, _, _), .uploaded(let id), .alreadyInTheDiary(let id, _), .willRetry(let id, _, _),
            .gaveUp(let id, _):
            awaitingHandOver.remove(id)
        case .paused:
            awaitingHandOver.removeAll()
        case .started:
            break
        }
    }

    /// The BCP 47 tag the server takes as a language hint (`en-US`), or nil when the locale names no language.
    public nonisolated static func languageTag(of locale: Locale) -> String? {
        guard let language = locale.language.languageCode?.identifier, (2...3).contains(language.count) else { return nil }
        guard let region = locale.region?.identifier, region.count == 2 || region.count == 3 else { return language }
        return "\(language)-\(region)"
    }

    /// The record button's accessible name: it starts with "Record" in every state, then says what a tap does.
    public var recordButtonLabel: String {
        switch recorder.state {
        case .idle, .saved, .failed: "Record"
        case .recording: "Recording — tap to pause"
        case .paused, .interrupted: "Recording paused — tap to resume"
        case .stopping: "Recording — saving"
        }
    }

    /// What the recording bar says on every other screen while a recording is under way, so it is never unseen.
    public struct RecordingBar: Sendable, Equatable {
        /// "Recording", "Paused" or "Saving…", before the elapsed time.
        public let status: String
        /// The bar's pause button: "Pause" or "Resume"; nil while the recording is being saved.
        public let pauseLabel: String?
    }

    /// The recording bar while a recording is under way or being saved; nil otherwise. Its buttons are
    /// `recordButtonTapped` (pause and resume) and `stopTapped`; tapping the bar itself goes back to Home.
    public var recordingBar: RecordingBar? {
        switch recorder.state {
        case .recording: RecordingBar(status: "Recording", pauseLabel: "Pause")
        case .paused, .interrupted: RecordingBar(status: "Paused", pauseLabel: "Resume")
        case .stopping: RecordingBar(status: "Saving…", pauseLabel: nil)
        case .idle, .saved, .failed: nil
        }
    }

    /// The hint under the button, on the first recording only.
    public var stopHint: String? { recorder.showsStopHint ? Recorder.stopHintText : nil }

    public func elapsedText(at uptime: TimeInterval) -> String { formattedDuration(recorder.elapsed(at: uptime)) }

    public func recordButtonTapped() async {
        if recorder.state.canStart { errorMessage = nil }
        await recorder.tap()
        await keepIfSaved()
    }

    /// The Lock Screen control asked to start (`stop` false) or to stop a recording, as its label showed; a request
    /// the recorder's state no longer fits (a stale label) does nothing.
    public func recordingControlTapped(stop: Bool) async {
        if stop {
            if recorder.state.isActive { await stopTapped() }
        } else if recorder.state.canStart {
            await recordButtonTapped()
        }
    }

    /// The Live Activity or the paused notification asked to resume (`resume` true) or to pause, as its button showed;
    /// a request the recorder's state no longer fits does nothing, and never starts a new recording.
    public func pauseRequested(resume: Bool) async {
        switch recorder.state {
        case .recording where !resume, .paused where resume, .interrupted where resume:
            await recorder.tap()
        case .idle, .recording, .paused, .interrupted, .stopping, .saved, .failed:
            break
        }
    }

    /// The screen calls it whenever the recorder's state changes: the audio of a take that failed becomes an
    /// entry at once (the capture keeps what it wrote), instead of waiting for the next launch.
    public func recorderStateChanged() async {
        guard case .failed = recorder.state else { return }
        do {
            if try !core.recoverInterruptedRecordings().isEmpty { await core.uploads.wake() }
        } catch {
            errorMessage = "What was recorded is kept and will be recovered when My Day opens next: \(error)"
        }
    }

    public func pressBegan() async { await recorder.pressBegan() }

    public func pressEnded() async {
        await recorder.pressEnded()
        await keepIfSaved()
    }

    /// Called every frame while the button is held.
    public func holdTick(at uptime: TimeInterval) async {
        await recorder.holdTick(at: uptime)
        await keepIfSaved()
    }

    /// The visible "Stop" for people who cannot long-press.
    public func stopTapped() async {
        await recorder.stop()
        await keepIfSaved()
    }

    /// The typed entry holds more than spaces and new lines.
    public var canSaveTypedEntry: Bool { !typedText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }

    /// Saves the typed entry and queues it; answers whether it was saved.
    @discardableResult
    public func saveTypedEntry() async -> Bool {
        guard canSaveTypedEntry else { return false }
        do {
            try await core.writeNote(typedText)
            typedText = ""
            isTypingInstead = false
            return true
        } catch {
            errorMessage = "The entry could not be saved: \(error)"
            return false
        }
    }

    /// A saved recording joins the library and the upload queue, once; when the device transcribes, the
    /// upload waits for its words.
    private func keepIfSaved() async {
        guard case .saved(let result) = recorder.state, !keptRecordings.contains(result.id) else { return }
        let transcriber = isInForeground() ? deviceTranscriber() : nil
        do {
            let kept = try core.keepRecording(
                id: result.id, duration: result.duration, awaitingDeviceTranscript: transcriber != nil)
            keptRecordings.insert(result.id)
            guard let transcriber else {
                awaitingHandOver.insert(result.id)
                return await core.uploads.wake()
            }
            let limit = Duration.seconds(max(60, kept.duration * 2))
            Task { [core, locale] in await core.transcribeOnDevice(kept, with: transcriber, locale: locale, limit: limit) }
        } catch {
            // The audio and its start note stay in the library; the next launch recovers them.
            errorMessage = "The recording could not be saved yet: \(error). It is kept and will be recovered."
        }
    }
}
