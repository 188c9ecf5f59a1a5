import Foundation

/// Which requests are limited, per what, and how much: the policy on top of a `RequestCounter`.
struct RateLimitGuard: Sendable {
    let limiter: any RequestCounter
    let settings: RateLimitPolicy
    /// Counts what is cheap enough to count per process (searches).
    var localLimiter: any RequestCounter = MemoryRequestCounter()

    func authRequest(from address: String) async throws {
        try await consume("auth-address:\(Self.addressKey(address))", settings.authPerAddress)
    }

    func refresh(from address: String) async throws {
        try await consume("refresh-address:\(Self.addressKey(address))", settings.refreshPerAddress)
    }

    /// Counts a password sign-in to the account before the password is checked, in one atomic step, so a burst of
    /// guesses in parallel gets no more than the limit between them; refuses it when the account has had too many.
    func passwordSignIn(account: String) async throws {
        try await consume("login-account:\(account)", settings.loginPerAccount)
    }

    /// The password was right: the sign-in counted by `passwordSignIn` is given back, so only failures spend.
    func passwordSignInSucceeded(account: String) async throws {
        try await limiter.giveBack("login-account:\(account)", limit: settings.loginPerAccount)
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

    func retranscription(user: String) async throws {
        try await consume("retranscriptions:\(user)", settings.retranscriptionsPerUser)
    }

    func search(user: String) async throws {
        if case .limited(let seconds) = try await localLimiter.consume("searches:\(user)", limit: settings.searchesPerUser) {
            throw APIError.tooManyRequests(retryAfterSeconds: seconds)
        }
    }

    func pushTest(user: String) async throws {
        if case .limited(let seconds) = try await localLimiter.consume("push-tests:\(user)", limit: settings.pushTestsPerUser) {
            throw APIError.tooManyRequests(retryAfterSeconds: seconds)
        }
    }

    func upload(user: String) async throws {
        try await consume("uploads:\(user)", settings.uploadsPerUser)
    }

    /// A verification link sent again, or a password reset asked for: counted per address mailed, whether or not an
    /// account has it, so the answer tells nothing.
    func accountMail(to email: String, askedFrom client: String) async throws {
        try await consume("account-mail:\(email)", settings.accountMailsPerAddress)
        try await consume(
            "account-mail-day:\(email):\(Self.addressKey(client))", settings.accountMailsPerAddressAndClientPerDay)
        try await consume("account-mail-day:\(email)", settings.accountMailsPerAddressPerDay)
    }

    /// The keys that name a user, so deleting the account removes its counts too.
    static func keys(ofUser user: String) -> [String] {
        ["password-check:\(user)", "entries:\(user)", "uploads:\(user)", "exports:\(user)", "retranscriptions:\(user)"]
    }

    private func consume(_ key: String, _ limit: RateLimit) async throws {
        if case .limited(let seconds) = try await limiter.consume(key, limit: limit) {
            throw APIError.tooManyRequests(retryAfterSeconds: seconds)
        }
    }
}
