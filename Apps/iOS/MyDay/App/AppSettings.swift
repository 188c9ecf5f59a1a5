import Foundation
import MyDayKit
import Observation
import WidgetKit

/// The person's settings, kept in UserDefaults: uploads on Wi-Fi only, transcription on this iPhone (with the speech
/// model iOS 26 downloads when the person asks), how long audio stays, and the lock.
@MainActor
@Observable
final class AppSettings {
    private static let uploadOnlyOnWiFiKey = "uploadOnlyOnWiFi"
    private static let transcribeOnDeviceKey = "transcribeOnDevice"
    private static let audioKeepingKey = "keepAudioDays"
    private static let lockEnabledKey = "lockEnabled"
    private static let lockDelayKey = "lockDelaySeconds"

    /// Face ID (or the passcode) before the diary shows: off by default.
    let lock: AppLock

    var lockEnabled: Bool {
        get { lock.isEnabled }
        set {
            lock.isEnabled = newValue
            defaults.set(newValue, forKey: Self.lockEnabledKey)
            // A locked diary's words stay out of the On this day widget from now on (the next refresh saves none).
            if newValue, let shared = RecordingControlBridge.sharedDefaults, let saved = OnThisDayWidgetContent.saved(in: shared)
            {
                saved.withoutWords.save(to: shared)
                WidgetCenter.shared.reloadTimelines(ofKind: RecordingControlBridge.onThisDayWidgetKind)
            }
        }
    }

    /// How long the app may be away before it locks again.
    var lockDelay: AppLock.Delay {
        get { lock.delay }
        set {
            lock.delay = newValue
            defaults.set(newValue.rawValue, forKey: Self.lockDelayKey)
        }
    }

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

    /// How long a recording's audio stays on this iPhone once the server has it (it then plays from the server).
    var audioKeeping: AudioKeeping {
        get { storedAudioKeeping }
        set {
            storedAudioKeeping = newValue
            defaults.set(newValue.storedValue, forKey: Self.audioKeepingKey)
        }
    }

    /// Whether this iPhone can transcribe speech of the current language by itself, or can once the person downloads
    /// the language's speech model.
    var onDeviceTranscriptionAvailable: Bool {
        onDeviceTranscriptionUnavailableReason == nil
    }

    /// Why it cannot (no permission, or not for this language), for the Settings section.
    var onDeviceTranscriptionUnavailableReason: String? {
        AppleSpeechTranscriber.unavailableReason(for: .current, model: speechModel)
    }

    /// Where the speech model of iOS 26 stands for the current language, as iOS last said (`refreshSpeechModel()`).
    private(set) var speechModel = SpeechModelState.notOffered
    /// Why the download the person last asked for did not finish; nil once one does, or while one runs.
    private(set) var speechModelProblem: String?
    @ObservationIgnored private var isDownloadingSpeechModel = false

    private var storedUploadOnlyOnWiFi: Bool
    private var storedTranscribeOnDevice: Bool
    private var storedAudioKeeping: AudioKeeping
    private let defaults: UserDefaults
    private let network: NetworkConditionsMonitor

    /// Reads the stored settings and tells `network` the Wi-Fi setting.
    init(defaults: UserDefaults = .standard, network: NetworkConditionsMonitor) {
        self.defaults = defaults
        self.network = network
        storedUploadOnlyOnWiFi = defaults.bool(forKey: Self.uploadOnlyOnWiFiKey)
        storedTranscribeOnDevice = defaults.object(forKey: Self.transcribeOnDeviceKey) as? Bool ?? true
        storedAudioKeeping = AudioKeeping(storedValue: defaults.object(forKey: Self.audioKeepingKey) as? Int)
        lock = AppLock(
            isEnabled: defaults.bool(forKey: Self.lockEnabledKey),
            delay: AppLock.Delay(storedValue: defaults.object(forKey: Self.lockDelayKey) as? Int))
        network.setWiFiOnly(storedUploadOnlyOnWiFi)
        Task { [weak self] in await self?.refreshSpeechModel() }
    }

    /// Asks iOS where the current language's speech model stands: at launch, when the app comes to the front, when
    /// Settings shows. While a download the person asked for runs, only "ready" replaces the progress it reports.
    func refreshSpeechModel() async {
        guard #available(iOS 26.0, *) else { return }
        let state = await SpeechModelInventory.state(for: .current)
        if isDownloadingSpeechModel, state.status != .ready { return }
        speechModel = state
    }

    /// Asks iOS to download and install the current language's speech model. Only the person's tap on the download
    /// button calls this: the download is theirs to agree to.
    func downloadSpeechModel() async {
        guard #available(iOS 26.0, *), !isDownloadingSpeechModel else { return }
        isDownloadingSpeechModel = true
        speechModelProblem = nil
        speechModel.status = .downloading(fraction: nil)
        do {
            try await SpeechModelInventory.install(for: .current) { [weak self] fraction in
                self?.noteDownloadProgress(fraction)
            }
        } catch {
            speechModelProblem = error.localizedDescription
        }
        isDownloadingSpeechModel = false
        await refreshSpeechModel()
    }

    private func noteDownloadProgress(_ fraction: Double) {
        guard isDownloadingSpeechModel, case .downloading(let shown) = speechModel.status else { return }
        // Reports reach the main actor in separate tasks: a late one must not move the bar back.
        speechModel.status = .downloading(fraction: max(fraction, shown ?? 0))
    }
}
