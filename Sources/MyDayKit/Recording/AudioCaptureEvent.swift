import Foundation

/// Something an `AudioCapture` reports without being asked.
public enum AudioCaptureEvent: Sendable, Equatable {
    case interrupted(reason: String)
    case interruptionEnded
    /// The RMS amplitude (linear, 0…1) of the latest buffer, e.g. from `WaveformLevels.rms(_:)`.
    case level(Float)
    case failed(reason: String)
}
