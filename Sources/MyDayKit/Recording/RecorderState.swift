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
}
