import Foundation
import Logging
import MyDayAPI
import MyDaySpeech

/// Implements the operations of `openapi.yaml`; each handler validates, calls a store, and maps the answer. It holds
/// the server's composed parts; the names below are shortcuts into them.
struct APIHandler: APIProtocol {
    /// The stores, blob store, links, configuration and logger of this process.
    let parts: ServerParts
    /// Passwords, access tokens and the Apple and Google token checks.
    let auth: AuthParts
    /// Checks an uploaded recording and sends it to transcription.
    let uploads: UploadCompletion
    /// Per-user and per-address request limits.
    let limits: RateLimitGuard
    /// Removes archives whose links a sign-out everywhere or a deletion just ended, without waiting for its round.
    let housekeeping: HousekeepingService
    /// Tells open event streams when their account changed.
    let changeFeed: ChangeFeed
    /// The list and search pages this process keeps; a closed account's are dropped at once.
    let answeredPages: AnsweredPages
}

extension APIHandler {
    var users: UserStore { parts.users }
    var sessions: SessionStore { parts.sessions }
    var entries: EntryStore { parts.entries }
    var blobs: any BlobStore { parts.blobs }
    var exports: ExportStore { parts.exports }
    var vocabulary: VocabularyStore { parts.vocabulary }
    var reminders: ReminderStore { parts.reminders }
    var links: BlobLinks { parts.links }
    var logger: Logger { parts.logger }
    var passwords: PasswordHasher { auth.passwords }
    var accessTokens: AccessTokens { auth.accessTokens }
    var identityVerifiers: IdentityVerifiers { auth.identityVerifiers }
    /// Exchanges Apple sign-ins' codes for refresh tokens to revoke later; nil when no team key is configured.
    var appleTokens: AppleAccountTokens? { parts.appleTokens }
    var providerTokenSealer: SecretSealer { parts.providerTokenSealer }
    var refreshTokenLifetime: Duration { parts.configuration.refreshTokenLifetime }
    var maxUploadBytes: Int { parts.configuration.maxUploadBytes }
    var maxRecordingSeconds: Int { parts.configuration.maxRecordingSeconds }
    /// How much audio and export archives one user may keep (`MYDAY_USER_QUOTA_BYTES`).
    var quotaBytes: Int { parts.configuration.userQuotaBytes }
    /// `MYDAY_PUBLIC_URL`: links are mailed only when it is set.
    var publicURL: String? { parts.configuration.publicURL }
    /// Now, for date phrases in a search, On this day and insights.
    var clock: @Sendable () -> Date { parts.configuration.clock }
    /// What `GET /v1/config` answers: the sign-in methods of this server.
    var clientConfig: Components.Schemas.ClientConfig { .init(configuration: parts.configuration) }
}
