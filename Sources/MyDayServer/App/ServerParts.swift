import Foundation
import Logging
import MyDayMail
import MyDaySpeech
import ObjectStorage
import Prometheus

/// Everything a `myday-server` process builds once from its configuration: the open, migrated database, the stores
/// over it, the blob store and the signing keys. `buildApplication` and `buildWorker` take what they need from it.
struct ServerParts: Sendable {
    let configuration: ServerConfiguration
    let logger: Logger
    let driver: any DatabaseDriver
    let users: UserStore
    let sessions: SessionStore
    let entries: EntryStore
    let exports: ExportStore
    let vocabulary: VocabularyStore
    let jobs: JobQueue
    let blobs: any BlobStore
    /// The disk store, whose files this server serves itself; nil when blobs live in a bucket.
    let diskBlobs: DiskBlobStore?
    let secret: [UInt8]
    /// Signs push messages; browsers subscribe with its public half.
    let vapidKey: VAPIDKey
    let signer: URLSigner
    let links: BlobLinks
    let registry: PrometheusCollectorRegistry

    /// Opens the database, builds the parts and hands them to `build`; `prepare` runs on the open database first
    /// (migrate, or check the schema). When `prepare` or `build` throws, the database is shut down: nothing stays open.
    static func open<T>(
        configuration: ServerConfiguration, logger: Logger,
        prepare: @Sendable (any DatabaseDriver) async throws -> Void, build: (ServerParts) async throws -> T
    ) async throws -> T {
        try configuration.createDataDirectory()
        let secret = try SigningSecret.load(configured: configuration.secret, file: configuration.secretFile)
        let vapidKey = try VAPIDKey.load(
            configuredPEM: configuration.vapidPrivateKey, sharedSecret: configuration.secret.map { Array($0.utf8) },
            file: configuration.vapidKeyFile)
        return try await DatabaseDriverFactory.withOpenDriver(configuration: configuration, logger: logger) { driver in
            try await prepare(driver)
            let doorbell = JobDoorbell()
            let (blobs, disk, bucket) = try blobStorage(configuration)
            let parts = ServerParts(
                configuration: configuration, logger: logger, driver: driver, users: UserStore(driver: driver),
                sessions: SessionStore(driver: driver, idleLifetime: configuration.refreshTokenLifetime),
                entries: EntryStore(driver: driver, rankedMatches: configuration.searchRankedMatches),
                exports: ExportStore(driver: driver, doorbell: doorbell), vocabulary: VocabularyStore(driver: driver),
                jobs: JobQueue(driver: driver, doorbell: doorbell),
                blobs: blobs, diskBlobs: disk, secret: secret, vapidKey: vapidKey, signer: URLSigner(secret: secret),
                links: BlobLinks(configuration: configuration, secret: secret, bucket: bucket),
                registry: PrometheusCollectorRegistry())
            return try await build(parts)
        }
    }
}

extension ServerParts {
    /// The blob store the configuration names; with it the disk store when it is that one, or the bucket's client.
    static func blobStorage(_ configuration: ServerConfiguration) throws -> (
        store: any BlobStore, disk: DiskBlobStore?, bucket: S3Client?
    ) {
        guard let settings = configuration.objectStorage else {
            let disk = try DiskBlobStore(root: configuration.blobDirectory)
            return (disk, disk, nil)
        }
        let bucket = S3Client(location: settings.location, credentials: settings.credentials)
        var store = try S3BlobStore(client: bucket, scratch: configuration.scratchDirectory)
        store.partSize = configuration.objectStoragePartBytes
        return (store, nil, bucket)
    }

    /// Apple's token endpoints for the configured team key; nil without one.
    var appleTokens: AppleAccountTokens? {
        configuration.appleTeamKey.map { AppleAccountTokens(key: $0, baseURL: configuration.appleAuthURL) }
    }

    var reminders: ReminderStore { ReminderStore(driver: driver) }

    var pushSubscriptions: PushSubscriptionStore { PushSubscriptionStore(driver: driver) }

    /// Sends notifications to subscribed browsers, signed with the server's key, to the allowed push services only.
    var pushSender: PushSender {
        let from = MailAddress(configuration.mailFrom).address
        let subject =
            configuration.publicURL.flatMap { $0.hasPrefix("https://") ? PublicURL.origin($0) : nil } ?? "mailto:\(from)"
        return PushSender(
            key: vapidKey, subject: subject, endpoints: PushEndpoint(services: configuration.pushServices),
            clock: configuration.clock)
    }

    /// The model that may write digests and titles, held to the person's words; nil without `MYDAY_LLM_URL`.
    var groundedWriter: GroundedWriter? {
        configuration.llmURL.map { url in
            GroundedWriter(
                chat: ChatCompletion(baseURL: url, model: configuration.llmModel, apiKey: configuration.llmAPIKey), logger: logger
            )
        }
    }

    /// Signs and reads the stop links of reminder mails.
    var reminderStopTokens: ReminderStopToken { ReminderStopToken(secret: secret) }

    /// Seals the provider refresh tokens the server keeps.
    var providerTokenSealer: SecretSealer { SecretSealer(secret: secret, purpose: "provider refresh tokens") }
}
