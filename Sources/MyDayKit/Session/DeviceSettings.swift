import Foundation
import Observation

/// The speech models of the device's own recognizer (iOS 26's `AssetInventory` in the app): where the current
/// language's stands, and its download.
public protocol DeviceSpeechModels: Sendable {
    /// Where the current language's model stands; `.notOffered` where the device has no such models.
    func state() async -> SpeechModelState
    /// Downloads and installs it, reporting the fraction done; returns when the device's first attempt ends.
    func install(onProgress: @escaping @MainActor @Sendable (Double) -> Void) async throws
}

/// The person's settings on this device, kept in UserDefaults: uploads on Wi-Fi only, transcription on the device
/// (with the speech model the person downloads when they ask), how long audio stays, and the lock.
@MainActor
@Observable
public final class DeviceSettings {
    static let uploadOnlyOnWiFiKey = "uploadOnlyOnWiFi"
    static let transcribeOnDeviceKey = "transcribeOnDevice"
    static let audioKeepingKey = "keepAudioDays"
    static let lockEnabledKey = "lockEnabled"
    static let lockDelayKey = "lockDelaySeconds"

    /// Face ID (or the passcode) before the diary shows: off by default.
    public let lock: AppLock

    /// Turning it on also takes the diary's words out of what the widgets show (`lockTurnedOn`).
    public var lockEnabled: Bool {
        get { lock.isEnabled }
        set {
            lock.isEnabled = newValue
            defaults.set(newValue, forKey: Self.lockEnabledKey)
            if newValue { lockTurnedOn() }
        }
    }

    /// How long the app may be away before it locks again.
    public var lockDelay: AppLock.Delay {
        get { lock.delay }
        set {
            lock.delay = newValue
            defaults.set(newValue.rawValue, forKey: Self.lockDelayKey)
        }
    }

    /// Recordings wait on the device until it is on Wi-Fi (or wired); the upload queue follows at once.
    public var uploadOnlyOnWiFi: Bool {
        didSet {
            defaults.set(uploadOnlyOnWiFi, forKey: Self.uploadOnlyOnWiFiKey)
            network.setWiFiOnly(uploadOnlyOnWiFi)
        }
    }

    /// Transcribe on the device before uploading, when it can (on by default).
    public var transcribeOnDevice: Bool {
        didSet { defaults.set(transcribeOnDevice, forKey: Self.transcribeOnDeviceKey) }
    }

    /// How long a recording's audio stays on the device once the server has it (it then plays from the server).
    public var audioKeeping: AudioKeeping {
        didSet { defaults.set(audioKeeping.storedValue, forKey: Self.audioKeepingKey) }
    }

    /// Whether the device can transcribe speech of the current language by itself, or can once the person downloads
    /// the language's speech model.
    public var onDeviceTranscriptionAvailable: Bool { onDeviceTranscriptionUnavailableReason == nil }

    /// Why it cannot (no permission, or not for this language), for the Settings section.
    public var onDeviceTranscriptionUnavailableReason: String? { unavailableReason(speechModel) }

    /// Where the current language's speech model stands, as the device last said (`refreshSpeechModel()`).
    public private(set) var speechModel = SpeechModelState.notOffered
    /// Why the download the person last asked for did not finish; nil once one does, or while one runs.
    public private(set) var speechModelProblem: String?
    @ObservationIgnored private var isDownloadingSpeechModel = false

    private let defaults: UserDefaults
    private let network: NetworkConditionsMonitor
    private let speechModels: any DeviceSpeechModels
    private let unavailableReason: @MainActor (SpeechModelState) -> String?
    private let lockTurnedOn: @MainActor () -> Void

    /// Reads the stored settings and tells `network` the Wi-Fi setting. `unavailableReason` says why the device cannot
    /// transcribe given the speech model's state; `lockTurnedOn` runs when the person turns the lock on.
    public init(
        defaults: UserDefaults = .standard, network: NetworkConditionsMonitor, speechModels: any DeviceSpeechModels,
        unavailableReason: @escaping @MainActor (SpeechModelState) -> String?,
        lockTurnedOn: @escaping @MainActor () -> Void = {}
    ) {
        self.defaults = defaults
        self.network = network
        self.speechModels = speechModels
        self.unavailableReason = unavailableReason
        self.lockTurnedOn = lockTurnedOn
        uploadOnlyOnWiFi = defaults.bool(forKey: Self.uploadOnlyOnWiFiKey)
        transcribeOnDevice = defaults.object(forKey: Self.transcribeOnDeviceKey) as? Bool ?? true
        audioKeeping = AudioKeeping(storedValue: defaults.object(forKey: Self.audioKeepingKey) as? Int)
        lock = AppLock(
            isEnabled: defaults.bool(forKey: Self.lockEnabledKey),
            delay: AppLock.Delay(storedValue: defaults.object(forKey: Self.lockDelayKey) as? Int))
        network.setWiFiOnly(uploadOnlyOnWiFi)
    }

    /// Asks the device where the current language's speech model stands: at launch, when the app comes to the front,
    /// when Settings shows. While a download the person asked for runs, only "ready" replaces the progress it reports.
    public func refreshSpeechModel() async {
        let state = await speechModels.state()
        if isDownloadingSpeechModel, state.status != .ready { return }
        speechModel = state
    }

    /// Downloads and installs the current language's speech model. Only the person's tap on the download button calls
    /// this: the download is theirs to agree to.
    public func downloadSpeechModel() async {
        guard !isDownloadingSpeechModel else { return }
        isDownloadingSpeechModel = true
        speechModelProblem = nil
        speechModel.status = .downloading(fraction: nil)
        do {
            try await speechModels.install { [weak self] fraction in self?.noteDownloadProgress(fraction) }
        } catch {
            speechModelProblem = error.localizedDescription
        }
        isDownloadingSpeechModel = false
        await refreshSpeechModel()
    }

    /// Progress reports reach the main actor in separate tasks: a late one never moves the bar back.
    func noteDownloadProgress(_ fraction: Double) {
        guard isDownloadingSpeechModel, case .downloading(let shown) = speechModel.status else { return }
        speechModel.status = .downloading(fraction: max(fraction, shown ?? 0))
    }
}
