import Foundation

/// What the Lock Screen and the Dynamic Island show while a recording is under way (the iPhone's Live Activity): a
/// clock that runs while recording and stands while paused, what is happening, and the label of the button that
/// pauses or resumes. There is none when no recording is under way: the activity ends.
public struct RecordingActivityContent: Codable, Hashable, Sendable {
    /// What the recording is doing.
    public enum Phase: String, Codable, Hashable, Sendable {
        case recording
        /// Paused by the person.
        case paused
        /// Paused by the system (a call, another app took the microphone): resuming is one tap away.
        case interrupted
    }

    public var phase: Phase
    /// The recorded time so far (pauses left out), shown as it stands while paused.
    public var elapsed: TimeInterval
    /// The moment a running clock counts from, so the system can tick it without the app: now less the recorded time.
    public var countingSince: Date
    public var status: String
    public var pauseLabel: String

    /// The content for `state`, `elapsed` seconds recorded at `now`; nil when no recording is under way.
    public init?(state: RecorderState, elapsed: TimeInterval, now: Date) {
        switch state {
        case .recording:
            (phase, status, pauseLabel) = (.recording, "Recording", "Pause")
        case .paused:
            (phase, status, pauseLabel) = (.paused, "Paused", "Resume")
        case .interrupted:
            (phase, status, pauseLabel) = (.interrupted, "Paused: something else took the microphone", "Resume")
        case .idle, .stopping, .saved, .failed:
            return nil
        }
        self.elapsed = elapsed
        countingSince = now.addingTimeInterval(-elapsed)
    }

    /// The clock runs (recording) or stands (paused).
    public var isCounting: Bool { phase == .recording }

    /// The recorded time as the app shows it ("1:05").
    public var elapsedText: String { formattedDuration(elapsed) }
}
