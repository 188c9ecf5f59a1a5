import Foundation
import Logging
import MyDayAPI
import MyDaySpeech

/// Implements the operations of `openapi.yaml`; each handler validates, calls a store, and maps the answer.
struct APIHandler: APIProtocol {
    let users: UserStore
    let sessions: SessionStore
    let entries: EntryStore
    let blobs: any BlobStore
    let exports: ExportStore
    let links: BlobLinks
    let passwords: PasswordHasher
    let accessTokens: AccessTokens
    let refreshTokenLifetime: Duration
    let maxUploadBytes: Int
    let maxRecordingSeconds: Int
    /// How much audio and export archives one user may keep (`MYDAY_USER_QUOTA_BYTES`).
    let quotaBytes: Int
    let audioProbe: AudioProbe
    /// Where a browser's recording is remuxed before it replaces the upload (in the data directory, beside the blobs).
    let scratch: URL
    let pipeline: any EntryPipeline
    let limits: RateLimitGuard
    let identityVerifiers: IdentityVerifiers
    /// Exchanges Apple sign-ins' codes for refresh tokens to revoke later; nil when no team key is configured.
    let appleTokens: AppleAccountTokens?
    let providerTokenSealer: SecretSealer
    /// What `GET /v1/config` answers: the sign-in methods of this server.
    let clientConfig: Components.Schemas.ClientConfig
    /// `MYDAY_PUBLIC_URL`: links are mailed only when it is set.
    let publicURL: String?
    /// Removes archives whose links a sign-out everywhere or a deletion just ended, without waiting for its round.
    let housekeeping: HousekeepingService
    /// Tells open event streams when their account changed.
    let changeFeed: ChangeFeed
    /// The entry-list pages this process keeps; a closed account's are dropped at once.
    let entryPages: EntryPageCache
    /// The moment date phrases in a search are read from.
    let searchClock: @Sendable () -> Date
    let logger: Logger
}
