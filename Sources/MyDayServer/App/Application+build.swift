import Foundation
import Hummingbird
import Logging
import MyDayAPI
import MyDaySpeech
import NIOPosix
import OpenAPIHummingbird
import OpenAPIRuntime
import Prometheus
import ServiceLifecycle

/// Builds the whole server from its configuration: database (migrated), blob store, routes and services.
package func buildApplication(
    configuration: ServerConfiguration, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try await ServerParts.open(configuration: configuration, logger: logger) { driver in
        let applied = try await Migrator.migrate(driver)
        if !applied.isEmpty { logger.info("database migrated", metadata: ["versions": "\(applied)"]) }
    } build: { parts in
        _ = try await parts.diskBlobs?.removeAbandonedWrites(startedBefore: Date().addingTimeInterval(-3600))
        // Services stop in reverse order: the server drains first, then the worker, then the database closes.
        var services: [any Service] = [DatabaseService(driver: parts.driver)]
        if let sqlite = parts.driver as? SQLiteDriver {
            services.append(SearchIndexCompaction(driver: sqlite, logger: logger))
        }
        var speech: SpeechEngine?
        if configuration.workers > 0 {
            let (worker, engine) = try await makeJobWorker(parts, metrics: PipelineMetrics(registry: parts.registry))
            services.append(worker)
            if let service = engine.service { services.append(service) }
            services.append(makeHousekeeping(parts))
            services.append(makeReminders(parts))
            speech = engine
        }
        let feed = ChangeFeed(users: parts.users, limits: configuration.changeFeedLimits)
        services.append(ChangeFeedService(feed: feed, logger: logger))
        let router = try await buildRouter(parts, speech: speech, changeFeed: feed)
        // Behind proxies every connection comes from them: then the proxies cap connections per client.
        let addresses =
            configuration.trustedProxyHops == 0 ? ConnectionsPerAddress(limit: configuration.connectionsPerAddress) : nil
        let limits = configuration.connectionLimits
        return Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        ConnectionGuard(addresses: addresses, bodyStallLimit: .init(limits.bodyStall))
                    ],
                    idleTimeout: .init(limits.idle))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "myday"),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
    }
}

/// The routes and middleware of the API, the signed blob URLs, the web app and the operations endpoints;
/// `speech` is the engine this process transcribes with (nil on an API-only node).
func buildRouter(_ parts: ServerParts, speech: SpeechEngine?, changeFeed: ChangeFeed) async throws
    -> Router<MyDayRequestContext>
{
    let configuration = parts.configuration
    let passwords = PasswordHasher(cost: configuration.bcryptCost, registry: parts.registry)
    if passwords.cost < PasswordHasher.productionCost {
        parts.logger.notice(
            "passwords are hashed at a test's bcrypt cost, below the production cost: for tests only",
            metadata: ["cost": "\(passwords.cost)", "production_cost": "\(PasswordHasher.productionCost)"])
    }
    // The decoy hash makes unknown emails cost one bcrypt; made now, the first such login is not slower.
    _ = try await passwords.decoyHash()
    let accessTokens = await AccessTokens(secret: parts.secret, lifetime: configuration.accessTokenLifetime)
    let limits = RateLimitGuard(
        limiter: parts.driver.engine == .postgres
            ? DatabaseRequestCounter(driver: parts.driver, now: configuration.rateLimitClock)
            : MemoryRequestCounter(now: configuration.rateLimitClock),
        settings: configuration.rateLimits, localLimiter: MemoryRequestCounter(now: configuration.rateLimitClock))

    try FileManager.default.createDirectory(at: configuration.scratchDirectory, withIntermediateDirectories: true)
    let router = Router(context: MyDayRequestContext.self)
    router.add(middleware: RequestMetricsMiddleware(registry: parts.registry))
    router.add(middleware: SecurityHeadersMiddleware(publicURL: configuration.publicURL))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: MethodNotAllowedMiddleware())
    router.add(middleware: ClientAddressMiddleware(trustedProxyHops: configuration.trustedProxyHops))
    router.add(middleware: JSONBodyMiddleware(accessTokens: accessTokens, timeLimit: configuration.connectionLimits.jsonBody))
    router.add(middleware: RequestOriginMiddleware(publicURL: configuration.publicURL))
    OperationsRoutes(
        driver: parts.driver, registry: parts.registry, jobs: parts.jobs, speech: speech,
        document: try OpenAPIDocument.yaml(), metricsToken: configuration.metricsToken
    ).register(on: router)
    BlobRoutes(
        disk: parts.diskBlobs, links: parts.links, entries: parts.entries, users: parts.users, exports: parts.exports,
        signer: parts.signer,
        maxUploadBytes: configuration.maxUploadBytes, limits: limits
    ).register(on: router)
    let answeredPages = AnsweredPages()
    router.add(
        middleware: EntryListResponder(
            accessTokens: accessTokens, users: parts.users, entries: parts.entries, pages: answeredPages.entries))
    router.add(
        middleware: SearchResponder(
            accessTokens: accessTokens, users: parts.users, entries: parts.entries, limits: limits,
            pages: answeredPages.searches, now: configuration.clock))
    let handler = APIHandler(
        parts: parts,
        auth: AuthParts(
            passwords: passwords, accessTokens: accessTokens,
            identityVerifiers: IdentityVerifiers(configuration: configuration, logger: parts.logger)),
        uploads: UploadCompletion(
            entries: parts.entries, blobs: parts.blobs, jobs: parts.jobs, audioProbe: AudioProbe(),
            scratch: configuration.scratchDirectory, maxRecordingSeconds: configuration.maxRecordingSeconds,
            logger: parts.logger),
        limits: limits, housekeeping: makeHousekeeping(parts), changeFeed: changeFeed, answeredPages: answeredPages)
    try handler.registerHandlers(
        on: router,
        configuration: Configuration(
            dateTranscoder: RFC3339DateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
        middlewares: [AbsentBodyMiddleware(), BearerAuthMiddleware(accessTokens: accessTokens, users: parts.users)])
    WebSessionRoutes(handler: handler, refreshTokenLifetime: configuration.refreshTokenLifetime).register(on: router)
    AppLinksRoute(appIDs: configuration.iosAppIDs).register(on: router)
    let blobOrigin = configuration.objectStorage?.location.origin
    if let folder = configuration.webAppDirectory {
        try WebAppRoutes(
            folder: URL(fileURLWithPath: folder, isDirectory: true), config: handler.clientConfig, blobOrigin: blobOrigin
        )
        .register(on: router)
    } else {
        try WebAppRoutes.bundled(config: handler.clientConfig, blobOrigin: blobOrigin).register(on: router)
    }
    return router
}

extension Components.Schemas.ClientConfig {
    /// The sign-in methods a server with this configuration offers; the first client id of each provider is the web's.
    init(configuration: ServerConfiguration) {
        self.init(
            signIn: .init(
                email: true, apple: !configuration.appleClientIDs.isEmpty, google: !configuration.googleClientIDs.isEmpty),
            appleClientId: configuration.appleClientIDs.first, googleClientId: configuration.googleClientIDs.first, search: true,
            mailsLinks: configuration.publicURL != nil, maxRecordingSeconds: configuration.maxRecordingSeconds)
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
