import Foundation
import Logging
import MyDayMail
import MyDaySpeech
import Prometheus
import ServiceLifecycle

/// Builds the background worker process (`myday-server worker`): the job queue's worker with every
/// job handler, and the database it needs, so API nodes and worker nodes scale apart.
package func buildWorker(configuration: ServerConfiguration, logger: Logger) async throws -> [any Service] {
    var settings = configuration
    settings.workers = max(configuration.workers, 1)
    return try await ServerParts.open(configuration: settings, logger: logger) { driver in
        guard try await Migrator.currentVersion(driver) == Migrator.all.last?.version else {
            throw ConfigurationError("the database schema is not up to date; run `myday-server migrate` first")
        }
    } build: { parts in
        // A worker-only process keeps its figures to itself for now: it serves no /metrics.
        let (worker, speech) = try await makeJobWorker(parts, metrics: PipelineMetrics(registry: parts.registry))
        return [DatabaseService(driver: parts.driver), worker, makeHousekeeping(parts), makeReminders(parts)]
            + (speech.service.map { [$0] } ?? [])
    }
}

/// The job worker with every handler, as both `serve` (in process) and `worker` run it, and the speech service
/// it transcribes with, when it runs one.
func makeJobWorker(_ parts: ServerParts, metrics: PipelineMetrics) async throws -> (worker: JobWorker, speech: SpeechEngine) {
    let configuration = parts.configuration
    let logger = parts.logger
    try FileManager.default.createDirectory(at: configuration.scratchDirectory, withIntermediateDirectories: true)
    // Decoded audio a crashed worker left behind; an hour old, so no running job of another process owns it.
    try await FileManager.removeStaleFiles(in: configuration.scratchDirectory, endingWith: ".pcm", olderThan: 3600)
    // Archives of export builds a crash cut short; a day old, so no build still running owns them.
    for suffix in [".zip.part", ".zip.part.entries.json"] {
        try await FileManager.removeStaleFiles(in: configuration.scratchDirectory, endingWith: suffix, olderThan: 24 * 3600)
    }
    let speech = try SpeechEngine.make(configuration, logger: logger)
    logger.info("transcribing", metadata: ["engine": "\(speech.name)"])
    var decoder = AudioDecoder()
    decoder.maxSeconds = Double(configuration.maxRecordingSeconds)
    let transcription = TranscriptionHandler(
        entries: parts.entries, vocabulary: parts.vocabulary, blobs: parts.blobs, decoder: decoder,
        recognizer: speech.recognizer,
        cleaner: makeCleaner(configuration, metrics: metrics, logger: logger),
        timeLimit: configuration.transcriptionTimeLimit, scratch: configuration.scratchDirectory,
        metrics: metrics, logger: logger)
    let mailer = makeMailer(configuration)
    var settings = JobWorker.Settings()
    settings.slots = configuration.workers
    settings.lease = configuration.jobLease
    var handlers: [any JobHandler] = [
        transcription,
        AccountDeletionHandler(users: parts.users, blobs: parts.blobs, logger: logger),
        AppleTokenRevocationHandler(apple: parts.appleTokens, sealer: parts.providerTokenSealer, logger: logger),
        ExportBuildHandler(
            exports: parts.exports, entries: parts.entries, vocabulary: parts.vocabulary, blobs: parts.blobs,
            scratch: configuration.scratchDirectory,
            linkLifetime: configuration.exportLinkLifetime, logger: logger),
        ExportMailHandler(
            exports: parts.exports, users: parts.users, links: parts.links, mailer: mailer,
            publicURL: configuration.publicURL, logger: logger),
        ReminderMailHandler(
            reminders: parts.reminders, users: parts.users, stopTokens: parts.reminderStopTokens, mailer: mailer,
            publicURL: configuration.publicURL, logger: logger),
        ReminderPushHandler(
            reminders: parts.reminders, subscriptions: parts.pushSubscriptions, sender: parts.pushSender, logger: logger),
    ]
    handlers += AccountMail.Kind.allCases.map { mail -> any JobHandler in
        AccountMailHandler(mail: mail, users: parts.users, mailer: mailer, publicURL: configuration.publicURL, logger: logger)
    }
    return (JobWorker(queue: parts.jobs, handlers: handlers, settings: settings, logger: logger), speech)
}

/// The periodic clean-up every job-running process runs (and the API uses to remove ended archives at once).
func makeHousekeeping(_ parts: ServerParts) -> HousekeepingService {
    let configuration = parts.configuration
    let usesOutbox = configuration.smtpURL == nil && configuration.sendGridAPIKey == nil
    return HousekeepingService(
        entries: parts.entries, exports: parts.exports, blobs: parts.blobs, users: parts.users,
        outbox: usesOutbox ? configuration.outboxDirectory : nil, mailLifetime: configuration.exportLinkLifetime,
        logger: parts.logger)
}

/// The reminders every job-running process sends when they are due (each once, whichever process claims it).
func makeReminders(_ parts: ServerParts) -> ReminderService {
    var service = ReminderService(
        reminders: parts.reminders, subscriptions: parts.pushSubscriptions, clock: parts.configuration.clock,
        logger: parts.logger)
    service.interval = parts.configuration.reminderInterval
    return service
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

/// The cleanup the configuration names: a chat model behind the faithfulness guard, or the rules.
func makeCleaner(_ configuration: ServerConfiguration, metrics: PipelineMetrics, logger: Logger) -> any TranscriptCleaner {
    guard let url = configuration.llmURL else { return RulesCleaner() }
    return ChatCompletionCleaner(
        baseURL: url, model: configuration.llmModel, apiKey: configuration.llmAPIKey, logger: logger,
        onFallback: { metrics.recordCleanupFallback($0) })
}
