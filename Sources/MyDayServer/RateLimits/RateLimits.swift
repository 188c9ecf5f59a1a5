import Foundation

/// The limits a server applies; each is configurable (`MYDAY_RATE_LIMIT_*_PER_MINUTE`).
public struct RateLimitSettings: Sendable, Equatable {
    /// Sign-up, sign-in and refresh requests from one address.
    public var authPerAddress = RateLimit(perMinute: 10)
    /// Failed sign-ins for one account, from any address: higher than one address may make, so an
    /// attacker on one address never locks the owner out, while many addresses together are slowed.
    public var loginPerAccount = RateLimit(perMinute: 30)
    /// Password checks of a signed-in user (password change, account deletion).
    public var passwordChecksPerUser = RateLimit(perMinute: 10)
    /// Entries one user creates.
    public var entriesPerUser = RateLimit(perMinute: 120)
    /// Audio uploads of one user.
    public var uploadsPerUser = RateLimit(perMinute: 120)
    /// Exports one user asks for: each reads the whole range.
    public var exportsPerUser = RateLimit(perMinute: 2)

    public init() {}
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which requests are limited, per what, and how much: the policy on top of a `RateLimiter`.
struct RateLimits: Sendable {
    let limiter: any RateLimiter
    let settings: RateLimitSettings

    func authRequest(from address: String) async throws {
        try await consume("auth-address:\(Self.addressKey(address))", settings.authPerAddress)
    }

    /// Refuses a sign-in to an account that has had too many failed ones lately.
    func loginAllowed(account: String) async throws {
        if case .limited(let seconds) = try await limiter.check("login-account:\(account)", limit: settings.loginPerAccount) {
            throw APIError.tooManyRequests(retryAfterSeconds: seconds)
        }
    }

    /// Counts a failed sign-in against the account.
    func loginFailed(account: String) async throws {
        _ = try await limiter.consume("login-account:\(account)", limit: settings.loginPerAccount)
    }

    /// The key of an address: IPv4 as it is; IPv6 by its /64, the block one host usually holds whole.
    static func addressKey(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        return bytes[0..<8].map { String(format: "%02x", $0) }.joined() + "::/64"
    }

    func passwordCheck(user: String) async throws {
        try await consume("password-check:\(user)", settings.passwordChecksPerUser)
    }

    func entryCreation(user: String) async throws {
        try await consume("entries:\(user)", settings.entriesPerUser)
    }

    func export(user: String) async throws {
        try await consume("exports:\(user)", settings.exportsPerUser)
    }

    func upload(user: String) async throws {
        try await consume("uploads:\(user)", settings.uploadsPerUser)
    }

    /// The keys that name a user, so deleting the account removes its counts too.
    static func keys(ofUser user: String) -> [String] {
        ["password-check:\(user)", "entries:\(user)", "uploads:\(user)", "exports:\(user)"]
    }

    private func consume(_ key: String, _ limit: RateLimit) async throws {
        if case .limited(let seconds) = try await limiter.consume(key, limit: limit) {
            throw APIError.tooManyRequests(retryAfterSeconds: seconds)
        }
    }
}
