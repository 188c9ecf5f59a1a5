import Foundation

/// The limits a server applies; each is configurable (`MYDAY_RATE_LIMIT_*_PER_MINUTE`).
package struct RateLimitPolicy: Sendable, Equatable {
    /// Sign-up and sign-in requests (and the other account requests anyone may make) from one address.
    package var authPerAddress = RateLimit(perMinute: 10)
    /// Session refreshes from one address: a refresh token cannot be guessed, so refreshes have a limit of their own and
    /// never spend the sign-ins' (every device of a household, or every client behind a proxy, refreshes often).
    package var refreshPerAddress = RateLimit(perMinute: 60)
    /// Failed password sign-ins to one account, from any address (each counted before its password is checked and
    /// given back when it was right): higher
    /// than one address may make, so an attacker on one address never locks the owner out, while many addresses
    /// together are slowed; Apple and Google sign-in are not counted here, so they stay open to the owner.
    package var loginPerAccount = RateLimit(perMinute: 30)
    /// Password checks of a signed-in user (password change, account deletion).
    package var passwordChecksPerUser = RateLimit(perMinute: 10)
    /// Entries one user creates.
    package var entriesPerUser = RateLimit(perMinute: 120)
    /// Audio uploads of one user.
    package var uploadsPerUser = RateLimit(perMinute: 120)
    /// Exports one user asks for: each reads the whole range.
    package var exportsPerUser = RateLimit(perMinute: 2)
    /// "Transcribe again" of one user: each runs the speech engine over a whole recording again.
    package var retranscriptionsPerUser = RateLimit(perMinute: 6)
    /// Searches of one user: each walks the index that every account shares. Counted by each server process in its
    /// own memory, on PostgreSQL too (a search must not cost a write).
    package var searchesPerUser = RateLimit(perMinute: 60)
    /// Test notifications one user sends to their browsers; counted in each process's memory, like searches.
    package var pushTestsPerUser = RateLimit(perMinute: 6)
    /// Mails to one address (verification links sent again, password resets): nobody's mailbox is flooded from here.
    package var accountMailsPerAddress = RateLimit(perMinute: 1)
    /// And no more than this many a day to one address asked from one client address, and the second in all: a
    /// stranger alone cannot spend the owner's resets of the day.
    var accountMailsPerAddressAndClientPerDay = RateLimit.perDay(10)
    var accountMailsPerAddressPerDay = RateLimit.perDay(30)

    package init() {}
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
