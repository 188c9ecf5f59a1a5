import Foundation

/// Why the microphone could not record, in words for the person.
public enum AudioCaptureError: LocalizedError, Equatable {
    case microphoneDenied
    /// The audio session could not start: a call or another app holds the microphone.
    case microphoneBusy
    case noMicrophone
    case unsupportedInput
    case notRecording
    /// The take ended early (encoding on stop or resuming failed): its audio stays, and the library recovers it at the
    /// next launch.
    case keptForNextLaunch(String)

    public var errorDescription: String? {
        switch self {
        case .microphoneDenied: "My Day may not use the microphone. Allow it in Settings › Privacy & Security › Microphone."
        case .microphoneBusy: "The microphone is in use by a call or another app. Try again when it is free."
        case .noMicrophone: "No microphone is available."
        case .unsupportedInput: "The microphone's audio format cannot be recorded."
        case .notRecording: "No recording is under way."
        case .keptForNextLaunch(let reason): "What was recorded is kept and appears when My Day opens next (\(reason))."
        }
    }
}
