import Foundation
import Logging
import MyDaySpeech
import Prometheus
import ServiceLifecycle

/// Builds the background worker process (`myday-server worker`): the job queue's worker with every
/// job handler, and the database it needs, so API nodes and worker nodes scale apart.
public func buildWorker(configuration: ServerConfiguration, logger: Logger) async throws -> [any Service] {
    var settings = configuration
    settings.workers = max(configuration.workers, 1)
    let parts = try await ServerParts.open(configuration: settings, logger: logger) { driver in
        guard try await Migrator.currentVersion(driver) == Migrator.all.last?.version else {
            throw ConfigurationError("the database schema is not up to date; run `myday-server migrate` first")
        }
    }
    do {
        // A worker-only process keeps its figures to itself for now: it serves no /metrics.
        let worker = try makeJobWorker(parts, metrics: PipelineMetrics(registry: parts.registry))
        let cleanup = ExportCleanupService(exports: parts.exports, blobs: parts.blobs, logger: logger)
        return [DatabaseService(driver: parts.driver), worker, cleanup]
    } catch {
        await parts.driver.shutdown()
        throw error
    }
}

/// The job worker with every handler, as both `serve` (in process) and `worker` run it.
func makeJobWorker(_ parts: ServerParts, metrics: PipelineMetrics) throws -> JobWorker {
    let configuration = parts.configuration
    let logger = parts.logger
    try FileManager.default.createDirectory(at: configuration.scratchDirectory, withIntermediateDirectories: true)
    // Decoded audio a crashed worker left behind; an hour old, so no running job of another process owns it.
    FileManager.default.removeFiles(in: configuration.scratchDirectory, endingWith: ".pcm", olderThan: 3600)
    // Archives of export builds a crash cut short; a day old, so no build still running owns them.
    for suffix in [".zip.part", ".zip.part.entries.json"] {
        FileManager.default.removeFiles(in: configuration.scratchDirectory, endingWith: suffix, olderThan: 24 * 3600)
    }
    let transcription = TranscriptionHandler(
        entries: parts.entries, blobs: parts.blobs, decoder: AudioDecoder(), recognizer: try makeRecognizer(configuration),
        cleaner: makeCleaner(configuration, metrics: metrics, logger: logger), scratch: configuration.scratchDirectory,
        metrics: metrics, logger: logger)
    var settings = JobWorker.Settings()
    settings.slots = configuration.workers
    settings.lease = configuration.jobLease
    let handlers: [any JobHandler] = [
        transcription,
        AccountDeletionHandler(users: parts.users, blobs: parts.blobs, logger: logger),
        ExportBuildHandler(
            exports: parts.exports, blobs: parts.blobs, scratch: configuration.scratchDirectory,
            linkLifetime: configuration.exportLinkLifetime, logger: logger),
        ExportMailHandler(
            exports: parts.exports, users: parts.users, links: parts.links, mailer: makeMailer(configuration), logger: logger),
    ]
    return JobWorker(queue: parts.jobs, handlers: handlers, settings: settings, logger: logger)
}

/// Where mail goes: an SMTP server, SendGrid, or else the outbox folder in the data directory.
func makeMailer(_ configuration: ServerConfiguration) -> any Mailer {
    if let url = configuration.smtpURL.flatMap(URL.init(string:)) {
        return SMTPMailer(url: url, from: configuration.mailFrom, caFile: configuration.smtpCAFile)
    }
    if let key = configuration.sendGridAPIKey {
        return SendGridMailer(baseURL: configuration.sendGridURL, apiKey: key, from: configuration.mailFrom)
    }
    return OutboxMailer(folder: configuration.outboxDirectory, from: configuration.mailFrom)
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
        baseURL: url, model: configuration.llmModel, apiKey: configuration.llmAPIKey, logger: logger,
        onFallback: { metrics.recordCleanupFallback($0) })
}
