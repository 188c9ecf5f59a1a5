import Foundation

/// Where a recording is in its life, as shown by the recording screen.
public enum RecorderState: Equatable, Sendable {
    case idle
    case recording
    case paused
    case stopping
    case saved(RecordingResult)
    case failed(String)
    /// The system took the microphone (a call, a route change); the user resumes with a tap or stops.
    case interrupted

    /// A recording is under way: recording, paused or interrupted.
    public var isActive: Bool {
        switch self {
        case .recording, .paused, .interrupted:
            true
        case .idle, .stopping, .saved, .failed:
            false
        }
    }

    /// A recording is under way or being saved: its audio is not an entry yet, so the diary must not change hands.
    public var holdsUnsavedAudio: Bool {
        isActive || self == .stopping
    }

    /// A tap starts a new recording from here.
    public var canStart: Bool {
        switch self {
        case .idle, .saved, .failed:
            true
        case .recording, .paused, .stopping, .interrupted:
            false
        }
    }

    /// The recording failed; what went wrong is said under the controls.
    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// The record button's SF Symbol: pause while recording, play while paused, a microphone otherwise.
    public var buttonSymbol: String {
        switch self {
        case .recording: "pause.fill"
        case .paused, .interrupted: "play.fill"
        case .idle, .stopping, .saved, .failed: "mic.fill"
        }
    }

    /// The haptic that goes with a change from `old` to this state: a firm tap on start, a light one on pause and
    /// resume, success when saved, an error when it failed.
    public func haptic(from old: RecorderState) -> RecorderHaptic? {
        switch (old, self) {
        case (_, .saved): .success
        case (_, .failed): .error
        case (.recording, .paused), (.recording, .interrupted), (.paused, .recording), (.interrupted, .recording): .light
        case (_, .recording): .firm
        default: nil
        }
    }
}

/// A change of the recorder's state felt in the hand.
public enum RecorderHaptic: Sendable {
    case firm, light, success, error
}
