/// The limits a server applies; each is configurable (`MYDAY_RATE_LIMIT_*_PER_MINUTE`).
public struct RateLimitSettings: Sendable, Equatable {
    /// Sign-up, sign-in and refresh requests from one address.
    public var authPerAddress = RateLimit(perMinute: 10)
    /// Sign-in attempts for one account, from any address: higher than one address may make, so
    /// an attacker on one address never locks the owner out, while many addresses together are slowed.
    public var loginPerAccount = RateLimit(perMinute: 30)
    /// Password checks of a signed-in user (password change, account deletion).
    public var passwordChecksPerUser = RateLimit(perMinute: 10)
    /// Entries one user creates.
    public var entriesPerUser = RateLimit(perMinute: 120)
    /// Audio uploads of one user.
    public var uploadsPerUser = RateLimit(perMinute: 120)

    public init() {}
}

/// Which requests are limited, per what, and how much: the policy on top of a `RateLimiter`.
struct RateLimits: Sendable {
    let limiter: any RateLimiter
    let settings: RateLimitSettings

    func authRequest(from address: String) async throws {
        try await consume("auth-address:\(address)", settings.authPerAddress)
    }

    func loginAttempt(account: String) async throws {
        try await consume("login-account:\(account)", settings.loginPerAccount)
    }

    func passwordCheck(user: String) async throws {
        try await consume("password-check:\(user)", settings.passwordChecksPerUser)
    }

    func entryCreation(user: String) async throws {
        try await consume("entries:\(user)", settings.entriesPerUser)
    }

    func upload(user: String) async throws {
        try await consume("uploads:\(user)", settings.uploadsPerUser)
    }

    /// The keys that name a user, so deleting the account removes its counts too.
    static func keys(ofUser user: String) -> [String] {
        ["password-check:\(user)", "entries:\(user)", "uploads:\(user)"]
    }

    private func consume(_ key: String, _ limit: RateLimit) async throws {
        if case .limited(let seconds) = try await limiter.consume(key, limit: limit) {
            throw APIError.tooManyRequests(retryAfterSeconds: seconds)
        }
    }
}
