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

    private let core: ClientCore
    @ObservationIgnored private var keptRecordings: Set<UUID> = []

    public init(core: ClientCore, recorder: Recorder) {
        self.core = core
        self.recorder = recorder
    }

    /// A Home screen whose recordings are written into `core`'s library, so a crash leaves them recoverable.
    public convenience init(core: ClientCore, capture: any AudioCapture, hintStore: any HintStore) {
        let library = core.library
        let recorder = Recorder(
            capture: capture, hintStore: hintStore,
            prepareFile: { id, startedAt in try library.beginRecording(id: id, startedAt: startedAt, timeZone: .current) })
        self.init(core: core, recorder: recorder)
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

    /// The hint under the button, on the first recording only.
    public var stopHint: String? { recorder.showsStopHint ? Recorder.stopHintText : nil }

    public func elapsedText(at uptime: TimeInterval) -> String { formattedDuration(recorder.elapsed(at: uptime)) }

    public func recordButtonTapped() async {
        await recorder.tap()
        await keepIfSaved()
    }

    public func pressBegan() { recorder.pressBegan() }

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

    /// Saves the typed entry and queues it; answers whether it was saved.
    @discardableResult
    public func saveTypedEntry() async -> Bool {
        let text = typedText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return false }
        do {
            try core.store.noteWritten(text)
            typedText = ""
            isTypingInstead = false
            await core.uploads.wake()
            return true
        } catch {
            errorMessage = "The entry could not be saved: \(error)"
            return false
        }
    }

    /// A saved recording joins the library and the upload queue, once.
    private func keepIfSaved() async {
        guard case .saved(let result) = recorder.state, !keptRecordings.contains(result.id) else { return }
        do {
            try core.keepRecording(id: result.id, duration: result.duration)
            keptRecordings.insert(result.id)
            await core.uploads.wake()
        } catch {
            // The audio and its start note stay in the library; the next launch recovers them.
            errorMessage = "The recording could not be saved yet: \(error). It is kept and will be recovered."
        }
    }
}
