import Foundation
import SQLKit

/// A user as the server keeps them.
struct UserRecord: Sendable, Equatable {
    let id: UUID
    let email: String
    let name: String?
    let hasPassword: Bool
    let createdAt: Date
    let tokenVersion: Int
    /// Whether the address is known to reach this person: a mailed link was opened, or Apple or Google vouched for it.
    var emailVerified = false
}

/// What a read of an account's entries checks: whether a token is still of its version, and how far its changes went.
struct AccountState: Sendable, Equatable {
    let tokenVersion: Int
    let changeSeq: Int
}

/// A way to sign in: email and password, or an Apple or Google account, keyed by the provider's subject.
struct IdentityRecord: Sendable, Equatable {
    let provider: String
    let subject: String
    let email: String?
    let createdAt: Date
}

/// Users, their sign-in identities, and the account-wide changes (sign out everywhere, new password, closing).
struct UserStore: Sendable {
    let driver: any DatabaseDriver

    enum RegistrationError: Error, Equatable {
        /// Another account has this email; taking it over needs signing in to that account.
        case emailTaken
        /// The identity belongs to an account already (a concurrent first sign-in made it).
        case identityTaken
    }

    enum UnlinkResult: Sendable, Equatable {
        case unlinked
        case notLinked
        /// The account has no password and no other identity: removing this one would lock the person out.
        case lastWayToSignIn
    }

    enum LinkResult: Sendable, Equatable {
        case linked(IdentityRecord)
        case alreadyLinked(IdentityRecord)
        case belongsToAnotherUser
        case providerAlreadyLinked
        /// The account's address is not confirmed: whoever made it may not own it, so it may not gain a way in.
        case addressUnconfirmed
        /// The account's sessions ended since the request's token was made (a reset, a claim, sign-out everywhere).
        case sessionEnded
    }

    /// What a verification link did.
    enum Verification: Sendable, Equatable {
        case verified(UserRecord)
        /// The link is good, but whoever opened it did not show they made the account (its creator's password still
        /// signs in): confirming now would hand the address's owner an account someone else can open. Not used up.
        case creatorUnproven
        case invalid
    }

    enum RemovePasswordResult: Sendable, Equatable {
        case removed
        case noPassword
        case lastWayToSignIn
    }

    /// Creates a user who signs in with `email` (already normalised) and a bcrypt hash and, on a server that mails
    /// links, queues the mail that confirms the address, in one transaction.
    func registerEmailUser(email: String, passwordHash: String, mailsLinks: Bool = true) async throws -> UserRecord {
        try await register(
            email: email, name: nil, passwordHash: passwordHash, provider: "email", subject: email, identityEmail: email,
            verified: false, confirmationMail: mailsLinks)
    }

    /// Creates a user for a verified Apple or Google identity; the provider vouched for the address.
    func registerProviderUser(provider: String, subject: String, email: String, name: String?) async throws -> UserRecord {
        try await register(
            email: email, name: name, passwordHash: nil, provider: provider, subject: subject, identityEmail: email,
            verified: true, confirmationMail: false)
    }

    private func register(
        email: String, name: String?, passwordHash: String?, provider: String, subject: String, identityEmail: String?,
        verified: Bool, confirmationMail: Bool
    ) async throws -> UserRecord {
        let user = UserRecord(
            id: UUID(), email: email, name: name, hasPassword: passwordHash != nil,
            createdAt: StoredTime.date(milliseconds: StoredTime.now()), tokenVersion: 0, emailVerified: verified)
        let createdAt = StoredTime.milliseconds(user.createdAt)
        return try await driver.write { db in
            let inserted = try await db.raw(
                """
                INSERT INTO users (id, email, name, password_hash, created_at, email_verified_at)
                VALUES (\(bind: user.id.lowercased), \(bind: email), \(bind: name), \(bind: passwordHash), \(bind: createdAt),
                    \(bind: verified ? createdAt : nil))
                ON CONFLICT (email) DO NOTHING RETURNING id
                """
            ).first()
            guard inserted != nil else { throw RegistrationError.emailTaken }
            guard try await Self.insertIdentity(provider, subject, email: identityEmail, userID: user.id, at: createdAt, in: db)
            else { throw RegistrationError.identityTaken }
            if confirmationMail {
                _ = try await JobQueue.enqueue(
                    kind: AccountMail.Kind.verification.rawValue, payload: AccountMail(userID: user.id).json, userID: user.id,
                    in: db)
            }
            return user
        }
    }

    /// The live user with this email and their password hash, if they sign in with a password.
    func emailLogin(email: String) async throws -> (user: UserRecord, passwordHash: String)? {
        try await driver.read { db in
            guard
                let row = try await db.raw(
                    "SELECT \(unsafeRaw: Self.columns), password_hash FROM users WHERE email = \(bind: email) AND deleted_at IS NULL"
                ).first(),
                let hash = try row.decode(column: "password_hash", as: String?.self)
            else { return nil }
            return (try Self.user(from: row), hash)
        }
    }

    /// The user's password hash, if they have a password.
    func passwordHash(userID: UUID) async throws -> String? {
        try await driver.read { db in
            try await db.raw("SELECT password_hash FROM users WHERE id = \(bind: userID.lowercased) AND deleted_at IS NULL")
                .first()?.decode(column: "password_hash", as: String?.self)
        }
    }

    /// The live user with this id.
    func user(id: UUID) async throws -> UserRecord? {
        try await driver.read { db in
            try await db.raw(
                "SELECT \(unsafeRaw: Self.columns) FROM users WHERE id = \(bind: id.lowercased) AND deleted_at IS NULL"
            )
            .first().map(Self.user(from:))
        }
    }

    /// The open account's token version and change sequence: all a read of its entries needs to know of it.
    func accountState(id: UUID) async throws -> AccountState? {
        if let postgres = driver as? PostgresDriver {
            return try await postgres.accountState(id: id.lowercased).map {
                AccountState(tokenVersion: $0.tokenVersion, changeSeq: $0.changeSeq)
            }
        }
        return try await driver.readIntegers(
            "SELECT token_version, change_seq FROM users WHERE id = \(bind: id.lowercased) AND deleted_at IS NULL"
        ).first.map { AccountState(tokenVersion: $0[0], changeSeq: $0[1]) }
    }

    /// The change sequence and token version of each open account among `ids` (closed and unknown ones are left out),
    /// for the change feed.
    func changeStates(ids: Set<UUID>) async throws -> [UUID: (changeSeq: Int, tokenVersion: Int)] {
        var states: [UUID: (changeSeq: Int, tokenVersion: Int)] = [:]
        let all = ids.map(\.lowercased)
        for start in stride(from: 0, to: all.count, by: 500) {
            let chunk = Array(all[start..<min(start + 500, all.count)])
            let rows = try await driver.read { db in
                try await db.raw(
                    "SELECT id, change_seq, token_version FROM users WHERE deleted_at IS NULL AND id IN (\(binds: chunk))"
                ).all()
            }
            for row in rows {
                states[try row.decodeUUID(column: "id")] = (
                    try row.decode(column: "change_seq", as: Int.self), try row.decode(column: "token_version", as: Int.self)
                )
            }
        }
        return states
    }

    /// Whether the database has the user at all, open or closed (a closed account's deletion is still under way).
    func exists(id: UUID) async throws -> Bool {
        try await driver.read { db in
            try await db.raw("SELECT id FROM users WHERE id = \(bind: id.lowercased)").first() != nil
        }
    }

    /// The live user an Apple or Google identity belongs to.
    func user(provider: String, subject: String) async throws -> UserRecord? {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.columns) FROM users WHERE deleted_at IS NULL AND id = (
                    SELECT user_id FROM identities WHERE provider = \(bind: provider) AND subject = \(bind: subject))
                """
            ).first().map(Self.user(from:))
        }
    }

    /// Keeps the name a provider gave, for a user who has none yet.
    func fillInName(_ name: String, userID: UUID) async throws {
        try await driver.write { db in
            try await db.raw("UPDATE users SET name = \(bind: name) WHERE id = \(bind: userID.lowercased) AND name IS NULL").run()
        }
    }

    /// The user's identities, oldest first.
    func identities(userID: UUID) async throws -> [IdentityRecord] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT provider, subject, email, created_at FROM identities
                WHERE user_id = \(bind: userID.lowercased) ORDER BY created_at, provider
                """
            ).all().map { row in
                IdentityRecord(
                    provider: try row.decode(column: "provider", as: String.self),
                    subject: try row.decode(column: "subject", as: String.self),
                    email: try row.decode(column: "email", as: String?.self),
                    createdAt: StoredTime.date(milliseconds: try row.decode(column: "created_at", as: Int.self)))
            }
        }
    }

    /// Adds an Apple or Google identity to a signed-in user, at most one per provider, while the sessions are still of
    /// `tokenVersion` (the request's) and the address is confirmed, or `confirmsAddress` (the provider vouched for the
    /// account's own address: then it is confirmed too).
    func link(
        provider: String, subject: String, email: String?, to userID: UUID, tokenVersion: Int, confirmsAddress: Bool = false
    ) async throws -> LinkResult {
        let now = StoredTime.now()
        return try await driver.write { db in
            let current = try await db.raw(
                "SELECT token_version, email FROM users WHERE id = \(bind: userID.lowercased) AND deleted_at IS NULL"
            ).first()
            guard try current?.decode(column: "token_version", as: Int.self) == tokenVersion else { return .sessionEnded }
            if confirmsAddress, let address = try current?.decode(column: "email", as: String.self) {
                try await Self.markVerified(userID: userID, email: address, in: db)
            }
            guard try await Self.isConfirmed(userID, in: db) else { return .addressUnconfirmed }
            if let owner = try await db.raw(
                "SELECT user_id FROM identities WHERE provider = \(bind: provider) AND subject = \(bind: subject)"
            ).first() {
                guard try owner.decodeUUID(column: "user_id") == userID else { return .belongsToAnotherUser }
                return .alreadyLinked(try await Self.identity(provider, subject, in: db))
            }
            let existing = try await db.raw(
                "SELECT subject FROM identities WHERE provider = \(bind: provider) AND user_id = \(bind: userID.lowercased)"
            ).first()
            guard existing == nil else { return .providerAlreadyLinked }
            guard try await Self.insertIdentity(provider, subject, email: email, userID: userID, at: now, in: db) else {
                // A concurrent link won: of this identity to someone, or of another identity of this provider to this user.
                let owner = try await db.raw(
                    "SELECT user_id FROM identities WHERE provider = \(bind: provider) AND subject = \(bind: subject)"
                ).first()
                return owner == nil ? .providerAlreadyLinked : .belongsToAnotherUser
            }
            return .linked(try await Self.identity(provider, subject, in: db))
        }
    }

    /// Removes the user's identity of `provider`, unless it is their last way to sign in.
    func unlink(provider: String, from userID: UUID) async throws -> UnlinkResult {
        try await driver.write { db in
            let user = userID.lowercased
            let ways = try await db.raw(
                """
                SELECT (SELECT COUNT(*) FROM identities WHERE user_id = \(bind: user) AND provider <> 'email')
                    + (SELECT COUNT(*) FROM users WHERE id = \(bind: user) AND password_hash IS NOT NULL) AS n
                """
            ).first()!.decode(column: "n", as: Int.self)
            let linked = try await db.raw(
                "SELECT subject FROM identities WHERE user_id = \(bind: user) AND provider = \(bind: provider)"
            ).first()
            guard linked != nil else { return .notLinked }
            guard ways > 1 else { return .lastWayToSignIn }
            try await Self.queueTokenRevocations(userID: userID, provider: provider, in: db)
            try await db.raw("DELETE FROM identities WHERE user_id = \(bind: user) AND provider = \(bind: provider)").run()
            return .unlinked
        }
    }

    /// Ends every login of the user, invalidates their access tokens and ends their export links.
    func signOutEverywhere(userID: UUID) async throws {
        try await driver.write { db in
            try await Self.revokeEverything(userID: userID, because: "every sign-in was ended", in: db)
        }
    }

    /// Sets a new password, ends every login and export link, and starts one new login for the device that asked, when
    /// the account's password is still `currentHash` (the one the request proved); nil otherwise.
    func changePassword(userID: UUID, currentHash: String, newHash: String, newRefreshTokenHash: String, expiresAt: Date)
        async throws -> UserRecord?
    {
        try await driver.write { db in
            guard
                try await db.raw(
                    """
                    SELECT id FROM users WHERE id = \(bind: userID.lowercased) AND password_hash = \(bind: currentHash)
                        AND deleted_at IS NULL
                    """
                ).first() != nil
            else { return nil }
            return try await Self.setPassword(
                userID: userID, newHash: newHash, newRefreshTokenHash: newRefreshTokenHash,
                expiresAt: expiresAt, in: db)
        }
    }

    /// Redeems a password-reset link (or a verification link: both prove the address) and, when it is good, sets the
    /// new password, marks the address it was mailed to verified, ends every login and export link and starts one new
    /// login, in one transaction. On an account whose address was never confirmed this is its owner arriving: every
    /// identity linked by whoever made it goes too. Nil when the link is unknown, used, expired, or for an address the
    /// account no longer has.
    func resetPassword(tokenHash: String, newHash: String, newRefreshTokenHash: String, expiresAt: Date) async throws
        -> UserRecord?
    {
        try await driver.write { db in
            // A confirmation link sets a password only while the address is unconfirmed (then it proves the address
            // as a reset link does); once confirmed, only a reset link, which every end of the sessions takes back.
            var redeemed = try await EmailTokens.redeem(tokenHash: tokenHash, purpose: .passwordReset, in: db)
            if redeemed == nil { redeemed = try await Self.unconfirmedAccountsLink(tokenHash, in: db) }
            guard let redeemed else { return nil }
            if try await !Self.isConfirmed(redeemed.userID, in: db) {
                try await Self.removeProviderIdentities(userID: redeemed.userID, in: db)
            }
            try await Self.markVerified(userID: redeemed.userID, email: redeemed.email, in: db)
            return try await Self.setPassword(
                userID: redeemed.userID, newHash: newHash, newRefreshTokenHash: newRefreshTokenHash, expiresAt: expiresAt,
                in: db)
        }
    }

    /// The address an unused, unexpired link was mailed to; nil when the link is no good.
    func emailOfUnusedLink(tokenHash: String, purposes: Set<EmailTokens.Purpose>) async throws -> String? {
        try await driver.read { db in try await EmailTokens.unusedEmail(tokenHash: tokenHash, purposes: purposes, in: db) }
    }

    /// Redeems a verification link: the address it was mailed to is verified. While the account's address was never
    /// confirmed and it has a password, only its creator may confirm this way (`openedBy` is the account, signed in):
    /// anyone else sets a password with the link instead (`resetPassword`), which ends every other way in.
    func verifyEmail(tokenHash: String, openedBy: UUID?) async throws -> Verification {
        try await driver.write { db in
            guard
                let pending = try await db.raw(
                    """
                    SELECT t.user_id, CASE WHEN u.password_hash IS NULL THEN 0 ELSE 1 END AS has_password, u.email_verified_at
                    FROM email_tokens t JOIN users u ON u.id = t.user_id
                    WHERE t.token_hash = \(bind: tokenHash) AND t.purpose = \(bind: EmailTokens.Purpose.verification.rawValue)
                    """
                ).first()
            else { return .invalid }
            let owner = try pending.decodeUUID(column: "user_id")
            let unconfirmed = try pending.decode(column: "email_verified_at", as: Int?.self) == nil
            if unconfirmed, try pending.decode(column: "has_password", as: Int.self) != 0, openedBy != owner {
                guard try await EmailTokens.unusedEmail(tokenHash: tokenHash, purposes: [.verification], in: db) != nil
                else { return .invalid }
                return .creatorUnproven
            }
            guard
                let redeemed = try await EmailTokens.redeem(tokenHash: tokenHash, purpose: .verification, in: db),
                let user = try await Self.markVerified(userID: redeemed.userID, email: redeemed.email, in: db)
            else { return .invalid }
            return .verified(user)
        }
    }

    /// A provider sign-in vouching for the address of an account that nobody ever confirmed: the address's owner has
    /// arrived. The creator's password, every identity and every session end; the provider's identity becomes the
    /// account's way in and the address is confirmed, in one transaction. Nil when the address has no such account.
    func claimUnconfirmedAccount(
        email: String, provider: String, subject: String, identityEmail: String?
    ) async throws -> UserRecord? {
        let lock: SQLQueryString = driver.engine == .postgres ? " FOR UPDATE" : ""
        return try await driver.write { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT id FROM users WHERE email = \(bind: email) AND deleted_at IS NULL AND email_verified_at IS NULL\(lock)
                    """
                ).first()
            else { return nil }
            let userID = try row.decodeUUID(column: "id")
            try await Self.removeProviderIdentities(userID: userID, in: db)
            try await Self.dropPassword(userID: userID, in: db)
            try await Self.revokeEverything(userID: userID, because: "the address's owner signed in", in: db)
            try await db.raw(
                "DELETE FROM email_tokens WHERE user_id = \(bind: userID.lowercased)"
            ).run()
            guard
                try await Self.insertIdentity(
                    provider, subject, email: identityEmail, userID: userID, at: StoredTime.now(), in: db)
            else { throw RegistrationError.identityTaken }
            return try await Self.markVerified(userID: userID, email: email, in: db)
        }
    }

    /// Removes the account's password, unless it is its last way to sign in.
    func removePassword(userID: UUID) async throws -> RemovePasswordResult {
        try await driver.write { db in
            let user = userID.lowercased
            guard
                try await db.raw(
                    "SELECT id FROM users WHERE id = \(bind: user) AND password_hash IS NOT NULL"
                ).first() != nil
            else { return .noPassword }
            guard try await Self.providerIdentityCount(userID: userID, in: db) > 0 else { return .lastWayToSignIn }
            try await Self.dropPassword(userID: userID, in: db)
            try await db.raw(
                """
                DELETE FROM email_tokens WHERE user_id = \(bind: user)
                    AND purpose = \(bind: EmailTokens.Purpose.passwordReset.rawValue)
                """
            ).run()
            return .removed
        }
    }

    /// Makes a single-use link's token for the user's address, replacing earlier ones of the same purpose.
    /// Nil for a confirmation link of an address confirmed meanwhile, or when the account's sessions were ended since
    /// `whileTokenVersion` (its mail is not sent).
    func issueEmailToken(userID: UUID, email: String, purpose: EmailTokens.Purpose, whileTokenVersion: Int? = nil)
        async throws -> String?
    {
        try await driver.write { db in
            if purpose == .verification || whileTokenVersion != nil {
                // The account's row is locked on PostgreSQL, so a claim of the address or an end of every session waits
                // for this link (and ends it), or this link waits for them and sees what they did.
                let lock: SQLQueryString = driver.engine == .postgres ? " FOR UPDATE" : ""
                let row = try await db.raw(
                    "SELECT email_verified_at, token_version FROM users WHERE id = \(bind: userID.lowercased)\(lock)"
                ).first()
                guard let row else { return nil }
                if purpose == .verification, try row.decode(column: "email_verified_at", as: Int?.self) != nil { return nil }
                if let whileTokenVersion, try row.decode(column: "token_version", as: Int.self) != whileTokenVersion {
                    return nil
                }
            }
            return try await EmailTokens.issue(userID: userID, email: email, purpose: purpose, in: db)
        }
    }

    /// Queues a verification mail for the user (sent again when asked).
    func queueVerificationMail(userID: UUID) async throws {
        try await driver.write { db in
            _ = try await JobQueue.enqueue(
                kind: AccountMail.Kind.verification.rawValue, payload: AccountMail(userID: userID).json, userID: userID,
                in: db)
        }
    }

    /// Queues a password-reset mail for whoever has `email`; the same work whether or not anyone has it.
    func queuePasswordResetMail(email: String) async throws {
        try await driver.write { db in
            _ = try await JobQueue.enqueue(
                kind: AccountMail.Kind.passwordReset.rawValue, payload: AccountMail(email: email).json, userID: nil, in: db)
        }
    }

    /// The live user with this email, whatever way they sign in.
    func user(email: String) async throws -> UserRecord? {
        try await driver.read { db in
            try await db.raw(
                "SELECT \(unsafeRaw: Self.columns) FROM users WHERE email = \(bind: email) AND deleted_at IS NULL"
            ).first().map(Self.user(from:))
        }
    }

    @discardableResult
    private static func markVerified(userID: UUID, email: String, in db: any SQLDatabase) async throws -> UserRecord? {
        try await db.raw(
            """
            UPDATE users SET email_verified_at = COALESCE(email_verified_at, \(bind: StoredTime.now()))
            WHERE id = \(bind: userID.lowercased) AND email = \(bind: email)
            """
        ).run()
        // Confirmation links still in the mail have nothing left to do (and no password may be set with them).
        try await db.raw(
            """
            DELETE FROM email_tokens WHERE user_id = \(bind: userID.lowercased)
                AND purpose = \(bind: EmailTokens.Purpose.verification.rawValue) AND used_at IS NULL
            """
        ).run()
        return try await liveUser(userID, in: db)
    }

    /// Redeems a confirmation link of an account whose address is not confirmed yet; nil for any other.
    private static func unconfirmedAccountsLink(_ tokenHash: String, in db: any SQLDatabase) async throws
        -> (userID: UUID, email: String)?
    {
        guard
            try await db.raw(
                """
                SELECT t.user_id FROM email_tokens t JOIN users u ON u.id = t.user_id
                WHERE t.token_hash = \(bind: tokenHash) AND t.purpose = \(bind: EmailTokens.Purpose.verification.rawValue)
                    AND u.email_verified_at IS NULL
                """
            ).first() != nil
        else { return nil }
        return try await EmailTokens.redeem(tokenHash: tokenHash, purpose: .verification, in: db)
    }

    private static func isConfirmed(_ userID: UUID, in db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            "SELECT id FROM users WHERE id = \(bind: userID.lowercased) AND email_verified_at IS NOT NULL"
        ).first() != nil
    }

    private static func providerIdentityCount(userID: UUID, in db: any SQLDatabase) async throws -> Int {
        try await db.raw(
            "SELECT COUNT(*) AS n FROM identities WHERE user_id = \(bind: userID.lowercased) AND provider <> 'email'"
        ).first()!.decode(column: "n", as: Int.self)
    }

    /// The account no longer signs in with email and password: its hash and its `email` identity go.
    private static func dropPassword(userID: UUID, in db: any SQLDatabase) async throws {
        try await db.raw("UPDATE users SET password_hash = NULL WHERE id = \(bind: userID.lowercased)").run()
        try await db.raw("DELETE FROM identities WHERE user_id = \(bind: userID.lowercased) AND provider = 'email'").run()
    }

    /// Removes every Apple and Google identity of the account, queueing the revocation of the tokens kept for them.
    private static func removeProviderIdentities(userID: UUID, in db: any SQLDatabase) async throws {
        try await queueTokenRevocations(userID: userID, provider: nil, in: db)
        try await db.raw(
            "DELETE FROM identities WHERE user_id = \(bind: userID.lowercased) AND provider <> 'email'"
        ).run()
    }

    private static func setPassword(
        userID: UUID, newHash: String, newRefreshTokenHash: String, expiresAt: Date, in db: any SQLDatabase
    ) async throws -> UserRecord? {
        try await db.raw(
            "UPDATE users SET password_hash = \(bind: newHash) WHERE id = \(bind: userID.lowercased) AND deleted_at IS NULL"
        ).run()
        try await Self.revokeEverything(userID: userID, because: "the password was changed", in: db)
        try await SessionStore.startFamily(userID: userID, tokenHash: newRefreshTokenHash, expiresAt: expiresAt, in: db)
        return try await liveUser(userID, in: db)
    }

    static func liveUser(_ userID: UUID, in db: any SQLDatabase) async throws -> UserRecord? {
        try await db.raw(
            "SELECT \(unsafeRaw: Self.columns) FROM users WHERE id = \(bind: userID.lowercased) AND deleted_at IS NULL"
        ).first().map(Self.user(from:))
    }

    /// Closes the account at once (no sign-in, no token works) and queues the removal of its data.
    func closeAccount(userID: UUID) async throws {
        try await driver.write { db in
            try await db.raw(
                "UPDATE users SET deleted_at = \(bind: StoredTime.now()) WHERE id = \(bind: userID.lowercased) AND deleted_at IS NULL"
            ).run()
            try await Self.revokeEverything(userID: userID, because: "the account was closed", in: db)
            // Work on the account would only be undone: waiting jobs go, and running ones find their job gone at their
            // next heartbeat and stop (an archive finished anyway is deleted by its build, and a stray folder by the sweep).
            try await db.raw(
                "DELETE FROM jobs WHERE user_id = \(bind: userID.lowercased) AND state IN ('queued', 'running')"
            ).run()
            _ = try await JobQueue.enqueue(
                kind: AccountDeletionHandler.kind, payload: AccountDeletionJob(userID: userID).json, userID: userID,
                maxAttempts: 1_000, in: db)
            try await Self.queueTokenRevocations(userID: userID, provider: nil, in: db)
        }
    }

    /// Keeps the provider's refresh token (sealed) of the user's identity, replacing one kept before.
    func keepProviderRefreshToken(
        _ sealed: String, clientID: String, provider: String, subject: String, userID: UUID
    ) async throws {
        try await driver.write { db in
            try await db.raw(
                """
                UPDATE identities SET refresh_token_sealed = \(bind: sealed), token_client_id = \(bind: clientID)
                WHERE provider = \(bind: provider) AND subject = \(bind: subject) AND user_id = \(bind: userID.lowercased)
                """
            ).run()
        }
    }

    /// Queues the revocation of the provider tokens kept for the user's identities (of `provider`, or all). The jobs
    /// belong to no user, so the account's deletion, which removes its jobs, leaves them to run.
    private static func queueTokenRevocations(userID: UUID, provider: String?, in db: any SQLDatabase) async throws {
        var query: SQLQueryString = """
            SELECT refresh_token_sealed, token_client_id FROM identities
            WHERE user_id = \(bind: userID.lowercased) AND refresh_token_sealed IS NOT NULL
            """
        if let provider { query = query + " AND provider = \(bind: provider)" }
        for row in try await db.raw(query).all() {
            let job = AppleTokenRevocationJob(
                sealedToken: try row.decode(column: "refresh_token_sealed", as: String.self),
                clientID: try row.decode(column: "token_client_id", as: String.self))
            _ = try await JobQueue.enqueue(
                kind: AppleTokenRevocationHandler.kind, payload: job.json, maxAttempts: AppleTokenRevocationHandler.attempts,
                in: db)
        }
    }

    /// Whether the account was closed (or is gone already): only then may its data be deleted.
    func isClosedOrGone(userID: UUID) async throws -> Bool {
        try await driver.read { db in
            guard let row = try await db.raw("SELECT deleted_at FROM users WHERE id = \(bind: userID.lowercased)").first() else {
                return true
            }
            return try row.decode(column: "deleted_at", as: Int?.self) != nil
        }
    }

    /// Ends every session, access token, audio link, export link and pending password-reset or address-change link of
    /// the account, and the address-change mails not sent yet: a change asked for by whoever was signed in before
    /// (with a stolen password, or the maker of an account on someone else's address) must not outlive their way in.
    private static func revokeEverything(userID: UUID, because reason: String, in db: any SQLDatabase) async throws {
        try await db.raw("UPDATE users SET token_version = token_version + 1 WHERE id = \(bind: userID.lowercased)").run()
        try await db.raw(
            """
            DELETE FROM email_tokens WHERE user_id = \(bind: userID.lowercased) AND used_at IS NULL
                AND purpose IN (\(bind: EmailTokens.Purpose.passwordReset.rawValue), \(bind: EmailTokens.Purpose.emailChange.rawValue))
            """
        ).run()
        try await db.raw(
            """
            DELETE FROM jobs WHERE user_id = \(bind: userID.lowercased) AND state = 'queued'
                AND kind = \(bind: AccountMail.Kind.emailChange.rawValue)
            """
        ).run()
        try await SessionStore.revokeAll(userID: userID, in: db)
        try await PushSubscriptionStore.endAll(userID: userID, in: db)
        try await ExportStore.endAll(userID: userID, reason: "The link stopped working when \(reason).", in: db)
    }

    /// Inserts an identity; false when (provider, subject) exists.
    private static func insertIdentity(
        _ provider: String, _ subject: String, email: String?, userID: UUID, at createdAt: Int, in db: any SQLDatabase
    ) async throws -> Bool {
        try await db.raw(
            """
            INSERT INTO identities (provider, subject, email, user_id, created_at)
            VALUES (\(bind: provider), \(bind: subject), \(bind: email), \(bind: userID.lowercased), \(bind: createdAt))
            ON CONFLICT DO NOTHING RETURNING provider
            """
        ).first() != nil
    }

    private static func identity(_ provider: String, _ subject: String, in db: any SQLDatabase) async throws -> IdentityRecord {
        let row = try await db.raw(
            "SELECT email, created_at FROM identities WHERE provider = \(bind: provider) AND subject = \(bind: subject)"
        ).first()!
        return IdentityRecord(
            provider: provider, subject: subject, email: try row.decode(column: "email", as: String?.self),
            createdAt: StoredTime.date(milliseconds: try row.decode(column: "created_at", as: Int.self)))
    }

    static let columns = """
        id, email, name, created_at, token_version, CASE WHEN password_hash IS NULL THEN 0 ELSE 1 END AS has_password, \
        CASE WHEN email_verified_at IS NULL THEN 0 ELSE 1 END AS email_verified
        """

    static func user(from row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.decodeUUID(column: "id"),
            email: try row.decode(column: "email", as: String.self),
            name: try row.decode(column: "name", as: String?.self),
            hasPassword: try row.decode(column: "has_password", as: Int.self) != 0,
            createdAt: StoredTime.date(milliseconds: try row.decode(column: "created_at", as: Int.self)),
            tokenVersion: try row.decode(column: "token_version", as: Int.self),
            emailVerified: try row.decode(column: "email_verified", as: Int.self) != 0
        )
    }
}
