import Foundation
import Logging
import Prometheus
import ServiceLifecycle

/// Builds the background worker process (`myday-server worker`): the job queue's worker with every
/// job handler, and the database it needs, so API nodes and worker nodes scale apart.
public func buildWorker(configuration: ServerConfiguration, logger: Logger) async throws -> [any Service] {
    let driver = try await DatabaseDriverFactory.open(configuration: configuration, logger: logger)
    do {
        guard try await Migrator.currentVersion(driver) == Migrator.all.last?.version else {
            throw ConfigurationError("the database schema is not up to date; run `myday-server migrate` first")
        }
        let blobs = try DiskBlobStore(root: configuration.blobDirectory)
        var settings = configuration
        settings.workers = max(configuration.workers, 1)
        // A worker-only process keeps its figures to itself for now: it serves no /metrics.
        let worker = try makeJobWorker(
            configuration: settings, driver: driver, blobs: blobs,
            metrics: PipelineMetrics(registry: PrometheusCollectorRegistry()),
            logger: logger)
        return [DatabaseService(driver: driver), worker]
    } catch {
        await driver.shutdown()
        throw error
    }
}

/// The job worker with every handler, as both `serve` (in process) and `worker` run it.
func makeJobWorker(
    configuration: ServerConfiguration, driver: any DatabaseDriver, blobs: any BlobStore, metrics: PipelineMetrics, logger: Logger
) throws -> JobWorker {
    try FileManager.default.createDirectory(at: configuration.scratchDirectory, withIntermediateDirectories: true)
    // Decoded audio a crashed worker left behind; an hour old, so no running job of another process owns it.
    FileManager.default.removeFiles(in: configuration.scratchDirectory, endingWith: ".pcm", olderThan: 3600)
    let transcription = TranscriptionHandler(
        entries: EntryStore(driver: driver), blobs: blobs, decoder: AudioDecoder(), recognizer: try makeRecognizer(configuration),
        cleaner: makeCleaner(configuration, metrics: metrics, logger: logger), scratch: configuration.scratchDirectory,
        metrics: metrics, logger: logger)
    var settings = JobWorker.Settings()
    settings.slots = configuration.workers
    settings.lease = configuration.jobLease
    let deletion = AccountDeletionHandler(users: UserStore(driver: driver), blobs: blobs, logger: logger)
    return JobWorker(
        queue: JobQueue(driver: driver), handlers: [transcription, deletion], settings: settings, logger: logger)
}

/// The speech-to-text engine the configuration names: a Whisper-compatible server, or PocketSphinx here.
func makeRecognizer(_ configuration: ServerConfiguration) throws -> any SpeechRecognizer {
    if let url = configuration.asrURL {
        return OpenAITranscriptionClient(baseURL: url, model: configuration.asrModel, apiKey: configuration.asrAPIKey)
    }
    return try PocketSphinxRecognizer()
}

/// The cleanup the configuration names: a chat model behind the faithfulness guard, or the rules.
func makeCleaner(_ configuration: ServerConfiguration, metrics: PipelineMetrics, logger: Logger) -> any TranscriptCleaner {
    guard let url = configuration.llmURL else { return RulesCleaner() }
    return ChatCompletionCleaner(
        baseURL: url, model: configuration.llmModel, apiKey: configuration.llmAPIKey, fallback: RulesCleaner(), metrics: metrics,
        logger: logger)
}
