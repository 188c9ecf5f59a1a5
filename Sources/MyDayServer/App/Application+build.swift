import Foundation
import Hummingbird
import Logging
import MyDayAPI
import NIOPosix
import OpenAPIHummingbird
import OpenAPIRuntime
import Prometheus
import ServiceLifecycle

/// Builds the whole server from its configuration: database (migrated), blob store, routes and services.
public func buildApplication(
    configuration: ServerConfiguration, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try configuration.createDataDirectory()
    let secret = try SigningSecret.load(configured: configuration.secret, file: configuration.secretFile)
    let driver = try await DatabaseDriverFactory.open(configuration: configuration, logger: logger)
    do {
        let applied = try await Migrator.migrate(driver)
        if !applied.isEmpty { logger.info("database migrated", metadata: ["versions": "\(applied)"]) }
        let blobs = try DiskBlobStore(root: configuration.blobDirectory)
        blobs.removeAbandonedUploads()
        let registry = PrometheusCollectorRegistry()
        let signer = URLSigner(secret: secret)
        let users = UserStore(driver: driver)
        let entries = EntryStore(driver: driver)
        // The decoy hash makes unknown emails cost one bcrypt; made now, the first such login is not slower.
        _ = try await NIOThreadPool.singleton.runIfActive { PasswordHasher.decoyHash }
        let accessTokens = await AccessTokens(secret: secret, lifetime: configuration.accessTokenLifetime)
        let links = BlobLinks(configuration: configuration, secret: secret)

        let limits = RateLimits(
            limiter: driver.engine == .postgres ? DatabaseRateLimiter(driver: driver) : MemoryRateLimiter(),
            settings: configuration.rateLimits)

        let router = Router(context: MyDayRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware(registry: registry))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: MethodNotAllowedMiddleware())
        router.add(middleware: ClientAddressMiddleware(trustedProxyHops: configuration.trustedProxyHops))
        router.add(middleware: JSONBodyMiddleware())
        router.add(middleware: RequestOriginMiddleware(publicURL: configuration.publicURL))
        OperationsRoutes(
            driver: driver, registry: registry, jobs: JobQueue(driver: driver), document: try OpenAPIDocument.yaml()
        ).register(on: router)
        BlobRoutes(
            blobs: blobs, entries: entries, exports: ExportStore(driver: driver), signer: signer,
            maxUploadBytes: configuration.maxUploadBytes, limits: limits
        ).register(on: router)
        let handler = APIHandler(
            users: users, sessions: SessionStore(driver: driver), entries: entries, blobs: blobs,
            exports: ExportStore(driver: driver), links: links,
            passwords: PasswordHasher(cost: configuration.bcryptCost), accessTokens: accessTokens,
            refreshTokenLifetime: configuration.refreshTokenLifetime, maxUploadBytes: configuration.maxUploadBytes,
            audioProbe: AudioProbe(), pipeline: TranscriptionPipeline(), limits: limits,
            identityVerifiers: IdentityVerifiers(configuration: configuration, logger: logger),
            clientConfig: .init(configuration: configuration), logger: logger)
        try handler.registerHandlers(
            on: router,
            configuration: Configuration(
                dateTranscoder: RFC3339DateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
            middlewares: [AbsentBodyMiddleware(), BearerAuthMiddleware(accessTokens: accessTokens, users: users)])
        WebSessionRoutes(handler: handler, refreshTokenLifetime: configuration.refreshTokenLifetime).register(on: router)
        try WebAppRoutes.bundled(config: handler.clientConfig).register(on: router)

        // Services stop in reverse order: the server drains first, then the worker, then the database closes.
        var services: [any Service] = [DatabaseService(driver: driver)]
        if configuration.workers > 0 {
            services.append(
                try makeJobWorker(
                    configuration: configuration, driver: driver, blobs: blobs, links: links,
                    metrics: PipelineMetrics(registry: registry),
                    logger: logger))
            services.append(ExportCleanupService(exports: ExportStore(driver: driver), blobs: blobs, logger: logger))
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "myday"),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
    } catch {
        await driver.shutdown()
        throw error
    }
}

extension Components.Schemas.ClientConfig {
    /// The sign-in methods a server with this configuration offers; the first client id of each provider is the web's.
    init(configuration: ServerConfiguration) {
        self.init(
            signIn: .init(
                email: true, apple: !configuration.appleClientIDs.isEmpty, google: !configuration.googleClientIDs.isEmpty),
            appleClientId: configuration.appleClientIDs.first, googleClientId: configuration.googleClientIDs.first, search: true)
    }
}

extension IdentityVerifiers {
    init(configuration: ServerConfiguration, logger: Logger) {
        func keySet(_ url: String) -> ProviderKeySet {
            ProviderKeySet(url: url, minimumRefetchInterval: configuration.providerKeysRefetchInterval, logger: logger)
        }
        self.init(
            apple: .apple(clientIDs: configuration.appleClientIDs, keySet: keySet(configuration.appleKeysURL)),
            google: .google(clientIDs: configuration.googleClientIDs, keySet: keySet(configuration.googleKeysURL)))
    }
}

/// Keeps the database open while the server runs and closes it after the server has drained.
struct DatabaseService: Service {
    let driver: any DatabaseDriver

    func run() async throws {
        try? await gracefulShutdown()
        await driver.shutdown()
    }
}
