import Foundation
import Logging
import MyDaySpeech

/// The speech-to-text engine the configuration names, and the speech service to run beside it, if any.
struct SpeechEngine: Sendable {
    let recognizer: any SpeechRecognizer
    let service: SpeechServiceSupervisor?
    /// The engine in use: `whisper` (the speech service), `openai-compatible` or `pocketsphinx`.
    let name: String
    /// The model named by the configuration; the speech service reports its own once it is ready.
    let configuredModel: String

    /// The engine, its model and whether it can transcribe now, for `/readyz` and `/metrics`.
    func status() async -> (engine: String, model: String, state: String) {
        guard let service else { return (name, configuredModel, "ready") }
        let status = await service.status
        return (name, status.model ?? configuredModel, status.state)
    }

    /// An OpenAI-compatible server when `MYDAY_ASR_URL` is set; else the installed speech service (Whisper);
    /// else PocketSphinx, with one log line saying why.
    static func make(_ configuration: ServerConfiguration, logger: Logger) throws -> SpeechEngine {
        if let url = configuration.asrURL {
            var client = OpenAITranscriptionClient(
                baseURL: url, model: configuration.asrModel, apiKey: configuration.asrAPIKey)
            client.streamsProgress = configuration.asrStreamsProgress
            return SpeechEngine(
                recognizer: client, service: nil, name: "openai-compatible", configuredModel: configuration.asrModel)
        }
        if configuration.speechService == .automatic {
            if let installation = SpeechServiceInstallation.find(home: configuration.speechHome) {
                let service = SpeechServiceSupervisor(
                    installation: installation, concurrency: configuration.workers, logger: logger)
                let recognizer = SupervisedSpeechRecognizer(supervisor: service, model: configuration.asrModel)
                return SpeechEngine(
                    recognizer: recognizer, service: service, name: "whisper",
                    configuredModel: ProcessInfo.processInfo.environment["MYDAY_SPEECH_MODEL"] ?? "whisper-base")
            }
            logger.warning(
                "the speech service is not installed (run scripts/install-speech-service); transcribing with PocketSphinx, US English only"
            )
        }
        return SpeechEngine(
            recognizer: try PocketSphinxRecognizer(), service: nil, name: "pocketsphinx", configuredModel: "en-us")
    }
}
