import Foundation
import SQLKit

/// Refresh tokens, stored as hashes and grouped in families: one family per sign-in, one live token per family.
struct SessionStore: Sendable {
    let driver: any DatabaseDriver
    /// How long after a token was used it may be presented again, for a client's own concurrent or
    /// repeated refresh (an answer lost on the way): while the token it was traded for is still unused,
    /// the retry gets a second live token of the family instead of ending it.
    var retryGrace: Duration = .seconds(10)
    /// A sign-in not used for this long ends: each refresh gives the new token this long again.
    var idleLifetime: Duration = .seconds(30 * 24 * 3600)
    /// However often it is used, a sign-in ends this long after it happened.
    var absoluteLifetime: Duration = .seconds(365 * 24 * 3600)

    enum Rotation: Sendable, Equatable {
        /// The token was live (or retried within the grace window); `newHash` is now the family's live token.
        /// `user` is as this transaction saw it, and `signedInAt` is when the family's sign-in happened.
        case rotated(user: UserRecord, signedInAt: Date)
        /// An old token of the family was presented again: the whole family is now revoked.
        case reused(userID: UUID, familyID: String)
        /// Unknown, expired, or of a family that is over.
        case invalid

        /// The user a rotation was for.
        var rotatedUserID: UUID? {
            if case .rotated(let user, _) = self { return user.id }
            return nil
        }
    }

    /// Starts a new family (a new sign-in) with its first token, when the account's sessions are still of
    /// `tokenVersion` (what the sign-in checked): a sign-in racing with a sign-out everywhere, a new password or the
    /// address's owner claiming the account starts nothing. False then. Without a version, always.
    @discardableResult
    func startFamily(userID: UUID, tokenVersion: Int? = nil, tokenHash: String, expiresAt: Date) async throws -> Bool {
        try await driver.write { db in
            if let tokenVersion {
                let current = try await db.raw(
                    "SELECT token_version FROM users WHERE id = \(bind: userID.lowercased) AND deleted_at IS NULL"
                ).first()?.decode(column: "token_version", as: Int.self)
                guard current == tokenVersion else { return false }
            }
            _ = try await Self.insert(db, userID: userID, familyID: UUID().lowercased, tokenHash: tokenHash, expiresAt: expiresAt)
            return true
        }
    }

    /// Marks the token behind `presentedHash` used and adds `newHash` to its family, in one transaction.
    func rotate(presentedHash: String, newHash: String) async throws -> Rotation {
        let graceMS = Int(retryGrace.seconds * 1000)
        // On PostgreSQL, lock the token and its user: refreshes racing with one token are decided one after the
        // other, and a sign-out everywhere (which updates the user row) waits for the rotation, or it for the sign-out.
        let lock: SQLQueryString = driver.engine == .postgres ? " FOR UPDATE OF r, u" : ""
        return try await driver.write { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT r.id, r.user_id, r.family_id, r.expires_at, r.used_at, r.revoked_at, r.replaced_by
                    FROM refresh_tokens r JOIN users u ON u.id = r.user_id
                    WHERE r.token_hash = \(bind: presentedHash) AND u.deleted_at IS NULL\(lock)
                    """
                ).first()
            else { return .invalid }
            // Read once the token is locked: a refresh that waited for another must not see its use in the future.
            let now = StoredTime.now()
            let tokenID = try row.decode(column: "id", as: String.self)
            let userID = try row.decodeUUID(column: "user_id")
            let familyID = try row.decode(column: "family_id", as: String.self)
            let expiresAt = try row.decode(column: "expires_at", as: Int.self)
            if try row.decode(column: "revoked_at", as: Int?.self) != nil || expiresAt <= now {
                return .invalid
            }
            let started = try await db.raw(
                "SELECT MIN(created_at) AS started FROM refresh_tokens WHERE family_id = \(bind: familyID)"
            ).first()!.decode(column: "started", as: Int.self)
            // A sign-in in use stays: the new token lives `idleLifetime` from now, up to `absoluteLifetime` after the
            // sign-in.
            let newExpiresAt = StoredTime.date(
                milliseconds: min(
                    now + Int(idleLifetime.seconds * 1000), started + Int(absoluteLifetime.seconds * 1000)))
            if let usedAt = try row.decode(column: "used_at", as: Int?.self) {
                let successor = try row.decode(column: "replaced_by", as: String?.self)
                guard now - usedAt < graceMS, let successor, try await Self.isUnused(successor, in: db) else {
                    try await Self.revokeFamily(familyID, now: now, in: db)
                    return .reused(userID: userID, familyID: familyID)
                }
                let newID = try await Self.insert(
                    db, userID: userID, familyID: familyID, tokenHash: newHash, expiresAt: newExpiresAt)
                // The answer the client lost is retired: presenting it later is reuse, so the family keeps one head.
                try await db.raw(
                    "UPDATE refresh_tokens SET used_at = \(bind: now), replaced_by = \(bind: newID) WHERE id = \(bind: successor)"
                ).run()
                try await db.raw("UPDATE refresh_tokens SET replaced_by = \(bind: newID) WHERE id = \(bind: tokenID)").run()
            } else {
                let newID = try await Self.insert(
                    db, userID: userID, familyID: familyID, tokenHash: newHash, expiresAt: newExpiresAt)
                try await db.raw(
                    "UPDATE refresh_tokens SET used_at = \(bind: now), replaced_by = \(bind: newID) WHERE id = \(bind: tokenID)"
                ).run()
            }
            let user = try await db.raw(
                "SELECT \(unsafeRaw: UserStore.columns) FROM users WHERE id = \(bind: userID.lowercased)"
            ).first().map(UserStore.user(from:))
            guard let user else { return .invalid }
            return .rotated(user: user, signedInAt: StoredTime.date(milliseconds: started))
        }
    }

    /// Revokes the family the token belongs to (sign-out of that login on every device that shares it).
    func revokeFamily(ofTokenHash hash: String) async throws {
        let now = StoredTime.now()
        try await driver.write { db in
            if driver.engine == .postgres {
                // Waits for a rotation in flight, so the token it adds is revoked too.
                try await db.raw(
                    """
                    SELECT u.id FROM users u JOIN refresh_tokens r ON r.user_id = u.id
                    WHERE r.token_hash = \(bind: hash) FOR UPDATE OF u
                    """
                ).run()
            }
            try await db.raw(
                """
                UPDATE refresh_tokens SET revoked_at = \(bind: now)
                WHERE revoked_at IS NULL AND family_id IN (SELECT family_id FROM refresh_tokens WHERE token_hash = \(bind: hash))
                """
            ).run()
        }
    }

    /// Revokes every family of the user, in the caller's transaction.
    static func revokeAll(userID: UUID, in db: any SQLDatabase) async throws {
        try await db.raw(
            """
            UPDATE refresh_tokens SET revoked_at = \(bind: StoredTime.now())
            WHERE user_id = \(bind: userID.lowercased) AND revoked_at IS NULL
            """
        ).run()
    }

    /// Starts a family in the caller's transaction.
    static func startFamily(userID: UUID, tokenHash: String, expiresAt: Date, in db: any SQLDatabase) async throws {
        _ = try await insert(db, userID: userID, familyID: UUID().lowercased, tokenHash: tokenHash, expiresAt: expiresAt)
    }

    private static func revokeFamily(_ familyID: String, now: Int, in db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE refresh_tokens SET revoked_at = \(bind: now) WHERE family_id = \(bind: familyID) AND revoked_at IS NULL"
        ).run()
    }

    private static func isUnused(_ tokenID: String, in db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            "SELECT id FROM refresh_tokens WHERE id = \(bind: tokenID) AND used_at IS NULL AND revoked_at IS NULL"
        ).first() != nil
    }

    private static func insert(_ db: any SQLDatabase, userID: UUID, familyID: String, tokenHash: String, expiresAt: Date)
        async throws -> String
    {
        let id = UUID().lowercased
        try await db.raw(
            """
            INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at)
            VALUES (\(bind: id), \(bind: userID.lowercased), \(bind: familyID), \(bind: tokenHash), \(bind: StoredTime.now()), \(bind: StoredTime.milliseconds(expiresAt)))
            """
        ).run()
        return id
    }
}
