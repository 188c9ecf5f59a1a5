import Foundation

/// Something an `AudioCapture` reports without being asked.
public enum AudioCaptureEvent: Sendable, Equatable {
    case interrupted(reason: String)
    /// The system gave the microphone back; `shouldResume` when it says the app may go on (after a call, not after
    /// another app's recording the person chose).
    case interruptionEnded(shouldResume: Bool)
    /// The RMS amplitude (linear, 0…1) of the latest buffer, e.g. from `WaveformLevels.rms(_:)`.
    case level(Float)
    case failed(reason: String)
}
