import Foundation
import MyDayKit
import MyDayTestSupport
import Testing

@MainActor
@Suite struct DeviceSettingsTests {
    /// Speech models whose download reports what a test hands it, and ends when the test says.
    @MainActor final class ScriptedModels: DeviceSpeechModels {
        var current = SpeechModelState(status: .notDownloaded, language: "English (United States)")
        var progress: (@MainActor @Sendable (Double) -> Void)?
        let finished: AsyncStream<(any Error)?>
        let finish: AsyncStream<(any Error)?>.Continuation

        init() {
            (finished, finish) = AsyncStream.makeStream(of: (any Error)?.self)
        }

        func state() async -> SpeechModelState { current }

        func install(onProgress: @escaping @MainActor @Sendable (Double) -> Void) async throws {
            progress = onProgress
            for await failure in finished {
                if let failure { throw failure }
                return
            }
        }
    }

    struct NoNetwork: Error, LocalizedError {
        var errorDescription: String? { "The network went away." }
    }

    func freshDefaults() throws -> UserDefaults {
        try #require(UserDefaults(suiteName: "myday-settings-\(UUID().uuidString)"))
    }

    func settings(_ defaults: UserDefaults, models: ScriptedModels = ScriptedModels(), network: NetworkConditionsMonitor? = nil)
        -> DeviceSettings
    {
        DeviceSettings(
            defaults: defaults, network: network ?? NetworkConditionsMonitor(wifiOnly: false), speechModels: models,
            unavailableReason: { $0.isInstalledOrInstallable ? nil : "Not for your language." })
    }

    @Test func aNewDeviceTranscribesItselfKeepsAudioAMonthAndHasNoLock() throws {
        // Given nothing stored
        let settings = settings(try freshDefaults())
        // Then transcription on the device is on, uploads use any network, and the lock is off
        #expect(settings.transcribeOnDevice)
        #expect(!settings.uploadOnlyOnWiFi)
        #expect(settings.audioKeeping == AudioKeeping(storedValue: nil))
        #expect(!settings.lockEnabled && !settings.lock.isLocked)
    }

    @Test func choicesOutliveTheAppAndWiFiOnlyReachesTheUploads() throws {
        // Given a person's choices
        let defaults = try freshDefaults()
        let network = NetworkConditionsMonitor(wifiOnly: false)
        var lockTurnedOn = 0
        let first = DeviceSettings(
            defaults: defaults, network: network, speechModels: ScriptedModels(), unavailableReason: { _ in nil },
            lockTurnedOn: { lockTurnedOn += 1 })
        first.uploadOnlyOnWiFi = true
        first.transcribeOnDevice = false
        first.audioKeeping = .always
        first.lockEnabled = true
        first.lockDelay = .fiveMinutes
        // Then the uploads wait for Wi-Fi at once, and turning the lock on told the widgets once
        #expect(!network.allowsExpensiveNetworks)
        #expect(lockTurnedOn == 1)
        // When the app starts again, then every choice is as the person left it, and the uploads know
        let later = NetworkConditionsMonitor(wifiOnly: false)
        let again = settings(defaults, network: later)
        #expect(again.uploadOnlyOnWiFi && !again.transcribeOnDevice && again.audioKeeping == .always)
        #expect(again.lockEnabled && again.lockDelay == .fiveMinutes && again.lock.isLocked)
        #expect(!later.allowsExpensiveNetworks)
        // And turning the lock off tells the widgets nothing
        first.lockEnabled = false
        #expect(lockTurnedOn == 1)
    }

    @Test func aDownloadsProgressNeverGoesBackAndEndsReady() async throws {
        // Given a model to download
        let models = ScriptedModels()
        let settings = settings(try freshDefaults(), models: models)
        await settings.refreshSpeechModel()
        #expect(settings.speechModel.status == .notDownloaded)
        #expect(settings.onDeviceTranscriptionAvailable)
        // When the person downloads it and the reports arrive out of order
        let download = Task { await settings.downloadSpeechModel() }
        try await pollUntil("the download started") { models.progress != nil }
        models.progress?(0.6)
        models.progress?(0.4)
        #expect(settings.speechModel.status == .downloading(fraction: 0.6))
        // And a refresh meanwhile says "not downloaded" yet: the progress stays
        await settings.refreshSpeechModel()
        #expect(settings.speechModel.status == .downloading(fraction: 0.6))
        // When it finishes, then the model is ready
        models.current.status = .ready
        models.finish.yield(nil)
        await download.value
        #expect(settings.speechModel.status == .ready && settings.speechModelProblem == nil)
    }

    @Test func aFailedDownloadSaysWhy() async throws {
        // Given a download that fails
        let models = ScriptedModels()
        let settings = settings(try freshDefaults(), models: models)
        let download = Task { await settings.downloadSpeechModel() }
        try await pollUntil("the download started") { models.progress != nil }
        models.finish.yield(NoNetwork())
        await download.value
        // Then the reason shows, and the model is as the device says
        #expect(settings.speechModelProblem == "The network went away.")
        #expect(settings.speechModel.status == .notDownloaded)
    }

    @Test func aLanguageWithoutAModelCannotBeTranscribedOnTheDevice() async throws {
        let models = ScriptedModels()
        models.current = SpeechModelState(status: .unavailable, language: "Welsh")
        let settings = settings(try freshDefaults(), models: models)
        await settings.refreshSpeechModel()
        #expect(!settings.onDeviceTranscriptionAvailable)
        #expect(settings.onDeviceTranscriptionUnavailableReason == "Not for your language.")
    }
}

@Suite struct DeviceTranscriptionTests {
    @Test func thePermissionComesFirstThenTheLanguage() {
        #expect(
            DeviceTranscription.unavailableReason(permissionDenied: true, canTranscribe: true)?.contains(
                "Speech Recognition is off") == true)
        #expect(
            DeviceTranscription.unavailableReason(permissionDenied: false, canTranscribe: false)?.contains(
                "not available for your language") == true)
        #expect(DeviceTranscription.unavailableReason(permissionDenied: false, canTranscribe: true) == nil)
    }
}
