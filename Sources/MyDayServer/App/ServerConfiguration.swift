import Configuration
import Foundation
import JWTKit
import MyDayModels
import ObjectStorage

/// Everything `myday-server` can be told, with the embedded defaults: loopback, SQLite and blobs under `./data`.
package struct ServerConfiguration: Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    /// Where the SQLite file, blobs, the generated secret and the mail outbox live.
    package var dataDirectory = URL(fileURLWithPath: "data", isDirectory: true)
    /// `postgres://user:password@host:port/database`; nil means SQLite in the data directory.
    package var databaseURL: String?
    /// Key for signing access tokens and blob URLs; nil means generate one and keep it in the data directory.
    package var secret: String?
    /// The scheme, host and port clients reach this server at, for signed URLs; nil means the request's `Host`.
    package var publicURL: String?
    /// When set, `/metrics` answers only requests with `Authorization: Bearer` and this token (`MYDAY_METRICS_TOKEN`).
    package var metricsToken: String?
    package var maxUploadBytes = 200 * 1024 * 1024
    /// How much audio and export archives one user may keep (`MYDAY_USER_QUOTA_BYTES`).
    package var userQuotaBytes = 10 * 1024 * 1024 * 1024
    /// The longest recording the server accepts and transcribes (`MYDAY_MAX_RECORDING_SECONDS`).
    package var maxRecordingSeconds = 3 * 3600
    /// How long one transcription job may run before it is given up, by the length of its audio.
    var transcriptionTimeLimit = TranscriptionTimeLimit()
    package var accessTokenLifetime: Duration = .seconds(15 * 60)
    package var refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600)
    package var uploadURLLifetime: Duration = .seconds(6 * 3600)
    package var downloadURLLifetime: Duration = .seconds(3600)
    /// How long an export's download link, and its archive, last (`MYDAY_EXPORT_LINK_TTL`, seconds).
    package var exportLinkLifetime: Duration = .seconds(7 * 24 * 3600)
    /// The sender of the mail the server sends (`MYDAY_MAIL_FROM`).
    package var mailFrom = "My Day <no-reply@localhost>"
    /// `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`; nil means no SMTP.
    package var smtpURL: String?
    /// A PEM file of the CA that signed the SMTP server's certificate, if not a public one.
    package var smtpCAFile: String?
    /// SendGrid's API key; with it (and no SMTP), mail goes through SendGrid's HTTP API.
    package var sendGridAPIKey: String?
    package var sendGridURL = "https://api.sendgrid.com"
    /// bcrypt work factor: `PasswordHasher.productionCost`. Only tests lower it, to run faster: in process, or through
    /// `MYDAY_TEST_BCRYPT_COST`, which only a debug build reads (the test suites' server processes).
    var bcryptCost = PasswordHasher.productionCost
    /// The time rate limits count with (µs since 1970); tests freeze or move it.
    var rateLimitClock: @Sendable () -> Int = RateLimit.microsecondsNow
    /// How many matches a search ranks one by one (`EntryStore.rankedMatches`); no setting changes it, tests lower it
    /// to reach the bound with few entries.
    var searchRankedMatches = EntryStore.productionRankedMatches
    /// Now, wherever the server asks what day it is: date phrases in search, On this day, insights, reminders. Tests
    /// fix it or move it.
    var clock: @Sendable () -> Date = { Date() }
    /// The key push messages are signed with (`MYDAY_VAPID_PRIVATE_KEY` or `_FILE`, PEM); nil means one derived from
    /// `MYDAY_SECRET` when it is set (every node alike), else one generated and kept in the data directory.
    package var vapidPrivateKey: String?
    /// Push services the server sends notifications to (`MYDAY_PUSH_SERVICES`, hosts; a host's subdomains count).
    package var pushServices = PushEndpoint.knownServices
    /// How often a job-running process looks for due reminders; tests shorten it.
    var reminderInterval: Duration = .seconds(30)
    package var logLevel = "info"
    /// Serves the web app from this folder instead of the copy built into the server (`MYDAY_WEB_APP_DIR`), so a
    /// change to its files needs only a restart while working on it.
    package var webAppDirectory: String?
    /// Jobs `serve` runs at once in its own process (`MYDAY_WORKERS`); 0 leaves them to `myday-server worker`.
    package var workers = ProcessInfo.processInfo.activeProcessorCount
    /// An OpenAI-compatible speech-to-text server (`MYDAY_ASR_URL`); nil means the speech service this server
    /// starts beside itself (Whisper), or PocketSphinx when that is not installed or turned off.
    package var asrURL: String?
    /// Whether the server starts the installed speech service (`MYDAY_SPEECH_SERVICE`: `auto`, the default, or `off`).
    package var speechService = SpeechServiceMode.automatic
    /// Where the speech service is installed (`MYDAY_SPEECH_HOME`); nil looks beside this build (`.build/speech`).
    package var speechHome: String?
    package var asrModel = "whisper-1"
    package var asrAPIKey: String?
    /// Whether the server at `asrURL` is My Day's speech service (`MYDAY_ASR_STREAM`), which tells how far a
    /// transcription is by server-sent events; other servers are asked for one answer.
    package var asrStreamsProgress = false
    /// An OpenAI-compatible chat server for cleanup (`MYDAY_LLM_URL`); nil means the rules only.
    package var llmURL: String?
    package var llmModel = "gpt-4o-mini"
    package var llmAPIKey: String?
    /// How long a job stays claimed without a heartbeat before another worker may take it over.
    package var jobLease: Duration = .seconds(60)
    /// Audiences Sign in with Apple tokens may have: the app's bundle id and the web's services id.
    package var appleClientIDs: [String] = []
    /// Audiences Google ID tokens may have: the OAuth client ids of the apps.
    package var googleClientIDs: [String] = []
    /// The iPhone apps (`TEAMID.bundle.id`) that open this server's mailed links (`MYDAY_IOS_APP_IDS`); none serves no
    /// `apple-app-site-association`.
    package var iosAppIDs: [String] = []
    package var appleKeysURL = "https://appleid.apple.com/auth/keys"
    /// The team's Sign in with Apple key (`MYDAY_APPLE_TEAM_ID`, `MYDAY_APPLE_KEY_ID`, `MYDAY_APPLE_PRIVATE_KEY` or
    /// `MYDAY_APPLE_PRIVATE_KEY_FILE`); with it the server keeps each Apple sign-in's refresh token to revoke it when
    /// the account closes. Nil keeps none.
    package var appleTeamKey: AppleTeamKey?
    /// Where Apple's `/token` and `/revoke` endpoints are (`MYDAY_APPLE_AUTH_URL`).
    package var appleAuthURL = "https://appleid.apple.com/auth"
    package var googleKeysURL = "https://www.googleapis.com/oauth2/v3/certs"
    /// A token naming an unknown key makes the server fetch the provider's keys again, at most this often.
    package var providerKeysRefetchInterval: Duration = .seconds(10)
    /// Reverse proxies in front of the server whose `X-Forwarded-For` is believed; 0 uses the peer address.
    package var trustedProxyHops = 0
    package var rateLimits = RateLimitPolicy()
    /// How long one read of a list, a search or an account check may run before it is stopped (422 for a search):
    /// nobody's query holds the database for long.
    package var readTimeLimit: Duration = .seconds(3)
    /// How long a write to the SQLite file waits for a write of another connection to it (a worker process beside the
    /// server, or a test's own look at the file) before it fails. The server's own writes take turns and never wait
    /// on each other.
    package var sqliteLockWait: Duration = .seconds(10)
    /// Live-update streams (`GET /v1/events`) per account and in all (`MYDAY_EVENT_STREAMS_PER_ACCOUNT`,
    /// `MYDAY_EVENT_STREAMS`).
    var changeFeedLimits = ChangeFeed.Limits()
    /// How long connections may wait on a client: the same for every kind of client (`MYDAY_HTTP_*_SECONDS`).
    package var connectionLimits = ConnectionLimits()
    /// Connections one client address may hold open while the server faces clients directly
    /// (`MYDAY_CONNECTIONS_PER_ADDRESS`; behind proxies, `MYDAY_TRUSTED_PROXY_HOPS` > 0, they cap connections instead).
    package var connectionsPerAddress = 64
    /// An S3-compatible bucket for audio and export archives (`MYDAY_S3_*`); nil keeps them under the data directory.
    package var objectStorage: ObjectStorageSettings?
    /// Files larger than this go to the bucket as multipart uploads of parts this size; tests lower it to S3's 5 MiB.
    var objectStoragePartBytes = 16 * 1024 * 1024

    package init() {}

    /// Reads `MYDAY_*` settings (`myday.port` is `MYDAY_PORT` in the environment).
    package init(reader: ConfigReader) throws {
        let config = reader.scoped(to: "myday")
        host = config.string(forKey: "host", default: host)
        port = config.int(forKey: "port", default: port)
        if let path = config.string(forKey: "data.dir") {
            dataDirectory = URL(fileURLWithPath: path, isDirectory: true)
        }
        databaseURL = config.string(forKey: "database.url", isSecret: true)
        secret = config.string(forKey: "secret", isSecret: true)
        publicURL = config.string(forKey: "public.url")
        metricsToken = config.string(forKey: "metrics.token", isSecret: true)
        if let metricsToken, metricsToken.utf8.count < 16 {
            throw ConfigurationError("MYDAY_METRICS_TOKEN must be at least 16 characters")
        }
        maxUploadBytes = config.int(forKey: "max.upload.bytes", default: maxUploadBytes)
        userQuotaBytes = config.int(forKey: "user.quota.bytes", default: userQuotaBytes)
        guard userQuotaBytes >= 1024 * 1024 else {
            throw ConfigurationError("MYDAY_USER_QUOTA_BYTES must be at least 1048576 (1 MiB), not \(userQuotaBytes)")
        }
        maxRecordingSeconds = config.int(forKey: "max.recording.seconds", default: maxRecordingSeconds)
        guard (60...86_400).contains(maxRecordingSeconds) else {
            throw ConfigurationError("MYDAY_MAX_RECORDING_SECONDS must be 60...86400, not \(maxRecordingSeconds)")
        }
        logLevel = config.string(forKey: "log.level", default: logLevel)
        webAppDirectory = config.string(forKey: "web.app.dir")
        workers = config.int(forKey: "workers", default: workers)
        asrURL = config.string(forKey: "asr.url")
        asrModel = config.string(forKey: "asr.model", default: asrModel)
        asrAPIKey = config.string(forKey: "asr.api.key", isSecret: true)
        asrStreamsProgress = config.bool(forKey: "asr.stream", default: false)
        speechHome = config.string(forKey: "speech.home")
        switch config.string(forKey: "speech.service", default: "auto") {
        case "auto": speechService = .automatic
        case "off": speechService = .off
        case let other: throw ConfigurationError("MYDAY_SPEECH_SERVICE must be auto or off, not \(other)")
        }
        if let asrURL, URL(string: asrURL)?.host == nil {
            throw ConfigurationError("MYDAY_ASR_URL must be an absolute URL such as http://127.0.0.1:9000")
        }
        llmURL = config.string(forKey: "llm.url")
        llmModel = config.string(forKey: "llm.model", default: llmModel)
        llmAPIKey = config.string(forKey: "llm.api.key", isSecret: true)
        if let llmURL, URL(string: llmURL)?.host == nil {
            throw ConfigurationError("MYDAY_LLM_URL must be an absolute URL such as http://127.0.0.1:8000")
        }
        appleClientIDs = Self.list(config.string(forKey: "apple.client.ids"))
        googleClientIDs = Self.list(config.string(forKey: "google.client.ids"))
        iosAppIDs = Self.list(config.string(forKey: "ios.app.ids"))
        if let bad = iosAppIDs.first(where: { !AppLinks.isAppID($0) }) {
            throw ConfigurationError("MYDAY_IOS_APP_IDS holds TEAMID.bundle.id entries; '\(bad)' is not one")
        }
        #if DEBUG
            let testCost = config.int(forKey: "test.bcrypt.cost", default: Int(bcryptCost))
            guard (4...31).contains(testCost) else {
                throw ConfigurationError("MYDAY_TEST_BCRYPT_COST must be 4...31, not \(testCost)")
            }
            bcryptCost = UInt8(testCost)
        #endif
        appleKeysURL = config.string(forKey: "apple.jwks.url", default: appleKeysURL)
        googleKeysURL = config.string(forKey: "google.jwks.url", default: googleKeysURL)
        appleAuthURL = config.string(forKey: "apple.auth.url", default: appleAuthURL)
        appleTeamKey = try Self.appleTeamKey(config)
        for (name, url) in [
            ("MYDAY_APPLE_JWKS_URL", appleKeysURL), ("MYDAY_GOOGLE_JWKS_URL", googleKeysURL),
            ("MYDAY_APPLE_AUTH_URL", appleAuthURL),
        ] {
            guard let parsed = URL(string: url), let host = parsed.host,
                parsed.scheme == "https" || (parsed.scheme == "http" && Loopback.isHost(host))
            else { throw ConfigurationError("\(name) must be an https URL (plain http only on loopback)") }
        }
        changeFeedLimits.perAccount = config.int(forKey: "event.streams.per.account", default: changeFeedLimits.perAccount)
        changeFeedLimits.total = config.int(forKey: "event.streams", default: changeFeedLimits.total)
        guard (1...100).contains(changeFeedLimits.perAccount), (1...1_000_000).contains(changeFeedLimits.total) else {
            throw ConfigurationError("MYDAY_EVENT_STREAMS_PER_ACCOUNT must be 1...100 and MYDAY_EVENT_STREAMS 1...1000000")
        }
        connectionLimits.idle = .seconds(config.int(forKey: "http.idle.seconds", default: 60))
        connectionLimits.bodyStall = .seconds(config.int(forKey: "http.body.stall.seconds", default: 30))
        connectionLimits.jsonBody = .seconds(config.int(forKey: "http.json.body.seconds", default: 60))
        connectionsPerAddress = config.int(forKey: "connections.per.address", default: connectionsPerAddress)
        guard connectionLimits.isValid, (1...100_000).contains(connectionsPerAddress) else {
            throw ConfigurationError(
                "MYDAY_HTTP_IDLE_SECONDS, MYDAY_HTTP_BODY_STALL_SECONDS and MYDAY_HTTP_JSON_BODY_SECONDS must be 1...3600, "
                    + "MYDAY_CONNECTIONS_PER_ADDRESS 1...100000")
        }
        trustedProxyHops = config.int(forKey: "trusted.proxy.hops", default: trustedProxyHops)
        guard (0...10).contains(trustedProxyHops) else { throw ConfigurationError("MYDAY_TRUSTED_PROXY_HOPS must be 0...10") }
        for (key, limit) in [
            ("auth", \RateLimitPolicy.authPerAddress), ("refresh", \.refreshPerAddress), ("login.account", \.loginPerAccount),
            ("password.checks", \.passwordChecksPerUser), ("entries", \.entriesPerUser), ("uploads", \.uploadsPerUser),
            ("exports", \.exportsPerUser), ("retranscriptions", \.retranscriptionsPerUser),
            ("account.mails", \.accountMailsPerAddress), ("searches", \.searchesPerUser), ("push.tests", \.pushTestsPerUser),
        ] {
            let perMinute = config.int(
                forKey: ConfigKey("rate.limit.\(key).per.minute"), default: rateLimits[keyPath: limit].perMinute)
            guard (1...1_000_000).contains(perMinute) else {
                throw ConfigurationError(
                    "MYDAY_RATE_LIMIT_\(key.uppercased().replacingOccurrences(of: ".", with: "_"))_PER_MINUTE must be 1...1000000"
                )
            }
            rateLimits[keyPath: limit] = RateLimit(perMinute: perMinute)
        }
        let exportLinkSeconds = config.int(forKey: "export.link.ttl", default: 7 * 24 * 3600)
        guard (60...(90 * 24 * 3600)).contains(exportLinkSeconds) else {
            throw ConfigurationError("MYDAY_EXPORT_LINK_TTL must be 60 seconds to 90 days, in seconds")
        }
        exportLinkLifetime = .seconds(exportLinkSeconds)
        vapidPrivateKey = config.string(forKey: "vapid.private.key", isSecret: true)
        if vapidPrivateKey == nil, let file = config.string(forKey: "vapid.private.key.file") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigurationError("MYDAY_VAPID_PRIVATE_KEY_FILE cannot be read: \(file)")
            }
            vapidPrivateKey = text
        }
        if let services = config.string(forKey: "push.services") {
            pushServices = Self.list(services).map { $0.lowercased() }
        }
        mailFrom = config.string(forKey: "mail.from", default: mailFrom)
        smtpURL = config.string(forKey: "smtp.url", isSecret: true)
        if let smtpURL {
            guard let url = URL(string: smtpURL), ["smtp", "smtps"].contains(url.scheme ?? ""), url.host != nil else {
                throw ConfigurationError("MYDAY_SMTP_URL must look like smtp://user:password@host:587 or smtps://host:465")
            }
        }
        smtpCAFile = config.string(forKey: "smtp.ca.file")
        sendGridAPIKey = config.string(forKey: "sendgrid.api.key", isSecret: true)
        sendGridURL = config.string(forKey: "sendgrid.url", default: sendGridURL)
        let leaseSeconds = config.int(forKey: "job.lease.seconds", default: 60)
        guard leaseSeconds >= 1 else { throw ConfigurationError("MYDAY_JOB_LEASE_SECONDS must be at least 1") }
        jobLease = .seconds(leaseSeconds)
        guard (0...65535).contains(port) else { throw ConfigurationError("MYDAY_PORT must be 0...65535, not \(port)") }
        guard (0...64).contains(workers) else { throw ConfigurationError("MYDAY_WORKERS must be 0...64, not \(workers)") }
        guard maxUploadBytes > 0 else { throw ConfigurationError("MYDAY_MAX_UPLOAD_BYTES must be positive") }
        if let publicURL, URL(string: publicURL)?.host == nil {
            throw ConfigurationError("MYDAY_PUBLIC_URL must be an absolute URL such as https://diary.example.com")
        }
        objectStorage = try ObjectStorageSettings(reader: reader)
    }

    /// All three parts of the team key, or none; the key must be the P-256 key Apple issued (a `.p8` file).
    private static func appleTeamKey(_ config: ConfigReader) throws -> AppleTeamKey? {
        let teamID = config.string(forKey: "apple.team.id")
        let keyID = config.string(forKey: "apple.key.id")
        var pem = config.string(forKey: "apple.private.key", isSecret: true)
        if pem == nil, let file = config.string(forKey: "apple.private.key.file") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigurationError("MYDAY_APPLE_PRIVATE_KEY_FILE cannot be read: \(file)")
            }
            pem = text
        }
        switch (teamID, keyID, pem) {
        case (nil, nil, nil): return nil
        case (let teamID?, let keyID?, let pem?):
            guard (try? ES256PrivateKey(pem: pem)) != nil else {
                throw ConfigurationError("MYDAY_APPLE_PRIVATE_KEY is not the P-256 private key Apple issued (the .p8 file)")
            }
            return AppleTeamKey(teamID: teamID, keyID: keyID, privateKeyPEM: pem)
        default:
            throw ConfigurationError(
                "Set all of MYDAY_APPLE_TEAM_ID, MYDAY_APPLE_KEY_ID and MYDAY_APPLE_PRIVATE_KEY (or _FILE), or none")
        }
    }

    private static func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Creates the data directory, private to this user (0700), unless it exists.
    func createDataDirectory() throws {
        guard !FileManager.default.fileExists(atPath: dataDirectory.path) else { return }
        try FileManager.default.createDirectory(
            at: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    var sqliteFile: URL { dataDirectory.appendingPathComponent("myday.sqlite") }
    var blobDirectory: URL { dataDirectory.appendingPathComponent("blobs", isDirectory: true) }
    var scratchDirectory: URL { dataDirectory.appendingPathComponent("tmp", isDirectory: true) }
    var secretFile: URL { dataDirectory.appendingPathComponent("secret") }
    var vapidKeyFile: URL { dataDirectory.appendingPathComponent("vapid-key.pem") }
    var outboxDirectory: URL { dataDirectory.appendingPathComponent("outbox", isDirectory: true) }
}

/// A setting that cannot be used, with a sentence saying which and why.
package struct ConfigurationError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// Whether `myday-server` runs the installed speech service when no `MYDAY_ASR_URL` is set.
package enum SpeechServiceMode: Sendable {
    /// Run it when it is installed; PocketSphinx otherwise.
    case automatic
    /// PocketSphinx, even when the service is installed.
    case off
}

/// How long the server waits on a client before it gives up on the connection or the request.
package struct ConnectionLimits: Sendable, Equatable {
    /// A connection with no request under way (headers not yet complete count as none) closes after this.
    package var idle: Duration = .seconds(60)
    /// A request body that stops arriving for this long closes its connection.
    package var bodyStall: Duration = .seconds(30)
    /// A JSON request body must have arrived whole within this (413s and uploads aside): 408 otherwise.
    package var jsonBody: Duration = .seconds(60)

    var isValid: Bool {
        [idle, bodyStall, jsonBody].allSatisfy { $0 >= .milliseconds(1) && $0 <= .seconds(3600) }
    }
}
