import Foundation
import MyDayKit
import Speech

/// The speech models iOS 26 keeps for `SpeechTranscriber`: whether the person's language has one on this iPhone, and
/// the download the person asks for in Settings. Nothing here downloads on its own.
@available(iOS 26.0, *)
enum SpeechModelInventory {
    /// The transcriber My Day runs. The checks below ask about this same configuration, so they speak of its model.
    static func transcriber(for model: Locale) -> SpeechTranscriber {
        SpeechTranscriber(locale: model, transcriptionOptions: [], reportingOptions: [], attributeOptions: [.audioTimeRange])
    }

    /// The locale of the model that transcribes `locale`'s speech; nil when iOS has none or this hardware runs no
    /// `SpeechTranscriber`.
    static func modelLocale(for locale: Locale) async -> Locale? {
        guard SpeechTranscriber.isAvailable else { return nil }
        return await SpeechTranscriber.supportedLocale(equivalentTo: locale)
    }

    static func state(for locale: Locale) async -> SpeechModelState {
        guard SpeechTranscriber.isAvailable else { return .notOffered }
        guard let model = await modelLocale(for: locale) else {
            return SpeechModelState(status: .unavailable, language: SpeechModelState.name(of: locale))
        }
        let assets = await AssetInventory.status(forModules: [transcriber(for: model)])
        let status: SpeechModelState.Status =
            switch assets {
            case .installed: .ready
            case .downloading: .downloading(fraction: nil)
            case .supported: .notDownloaded
            case .unsupported: .unavailable
            @unknown default: .unavailable
            }
        return SpeechModelState(status: status, language: SpeechModelState.name(of: model))
    }

    /// A transcriber for `locale` whose model is on this iPhone now; nil when there is none.
    static func installedTranscriber(for locale: Locale) async -> SpeechTranscriber? {
        guard let model = await modelLocale(for: locale) else { return nil }
        let transcriber = transcriber(for: model)
        return await AssetInventory.status(forModules: [transcriber]) == .installed ? transcriber : nil
    }

    /// Reserves `locale`'s model for My Day and asks iOS to download and install it, reporting the fraction done.
    /// Only the person's tap on the download button in Settings calls this.
    ///
    /// Returns when iOS's first attempt ends; after a network failure iOS tries again by itself later.
    static func install(for locale: Locale, onProgress: @escaping @MainActor @Sendable (Double) -> Void) async throws {
        guard let model = await modelLocale(for: locale) else { throw SpeechModelError.unavailable }
        await makeRoom(for: model)
        try await AssetInventory.reserve(locale: model)
        guard let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber(for: model)]) else {
            return
        }
        let observation = request.progress.observe(\.fractionCompleted, options: [.initial, .new]) { progress, _ in
            let fraction = progress.fractionCompleted
            Task { @MainActor in onProgress(fraction) }
        }
        defer { observation.invalidate() }
        try await request.downloadAndInstall()
    }

    /// My Day transcribes only the iPhone's language: when its reservations are all taken by other languages (the
    /// person changed the iPhone's language), they are given back so `model` can have one.
    private static func makeRoom(for model: Locale) async {
        let reserved = await AssetInventory.reservedLocales
        let wanted = model.identifier(.bcp47)
        guard !reserved.contains(where: { $0.identifier(.bcp47) == wanted }),
            reserved.count >= AssetInventory.maximumReservedLocales
        else { return }
        for locale in reserved {
            await AssetInventory.release(reservedLocale: locale)
        }
    }
}

/// Why the speech model could not be downloaded.
enum SpeechModelError: LocalizedError {
    case unavailable

    var errorDescription: String? {
        String(localized: "iOS has no speech model for your language.")
    }
}

/// iOS's speech models as `DeviceSettings` asks for them: none before iOS 26.
struct AppleSpeechModels: DeviceSpeechModels {
    func state() async -> SpeechModelState {
        guard #available(iOS 26.0, *) else { return .notOffered }
        return await SpeechModelInventory.state(for: .current)
    }

    func install(onProgress: @escaping @MainActor @Sendable (Double) -> Void) async throws {
        guard #available(iOS 26.0, *) else { return }
        try await SpeechModelInventory.install(for: .current, onProgress: onProgress)
    }
}
