import Foundation
import MyDayKit
import Observation

/// The person's settings, kept in UserDefaults: uploads on Wi-Fi only, and transcription on this iPhone.
@MainActor
@Observable
final class AppSettings {
    private static let uploadOnlyOnWiFiKey = "uploadOnlyOnWiFi"
    private static let transcribeOnDeviceKey = "transcribeOnDevice"

    /// Recordings wait on the iPhone until it is on Wi-Fi (or wired); the upload queue follows at once.
    var uploadOnlyOnWiFi: Bool {
        get { storedUploadOnlyOnWiFi }
        set {
            storedUploadOnlyOnWiFi = newValue
            defaults.set(newValue, forKey: Self.uploadOnlyOnWiFiKey)
            network.setWiFiOnly(newValue)
        }
    }

    /// Transcribe on this iPhone before uploading, when it can (on by default).
    var transcribeOnDevice: Bool {
        get { storedTranscribeOnDevice }
        set {
            storedTranscribeOnDevice = newValue
            defaults.set(newValue, forKey: Self.transcribeOnDeviceKey)
        }
    }

    /// Whether this iPhone can transcribe speech of the current language by itself.
    var onDeviceTranscriptionAvailable: Bool {
        onDeviceTranscriptionUnavailableReason == nil
    }

    /// Why it cannot (no permission, or not for this language), for the Settings section.
    var onDeviceTranscriptionUnavailableReason: String? {
        AppleSpeechTranscriber.unavailableReason(for: .current)
    }

    private var storedUploadOnlyOnWiFi: Bool
    private var storedTranscribeOnDevice: Bool
    private let defaults: UserDefaults
    private let network: NetworkConditionsMonitor

    /// Reads the stored settings and tells `network` the Wi-Fi setting.
    init(defaults: UserDefaults = .standard, network: NetworkConditionsMonitor) {
        self.defaults = defaults
        self.network = network
        storedUploadOnlyOnWiFi = defaults.bool(forKey: Self.uploadOnlyOnWiFiKey)
        storedTranscribeOnDevice = defaults.object(forKey: Self.transcribeOnDeviceKey) as? Bool ?? true
        network.setWiFiOnly(storedUploadOnlyOnWiFi)
    }
}
