import Foundation
import SQLKit

/// The single-use links mailed to an account's address (verify it, reset the password, or confirm a new one): only their SHA-256 is
/// stored, each names the address it was sent to, expires, and a newer link of the same purpose replaces older ones.
enum EmailTokens {
    enum Purpose: String, Sendable {
        case verification = "verify_email"
        case passwordReset = "reset_password"
        /// Confirms a new address for the account; the token names the new address.
        case emailChange = "change_email"

        /// How long a mailed link works.
        var lifetime: TimeInterval {
            switch self {
            case .verification: 7 * 24 * 3600
            case .passwordReset: 30 * 60
            case .emailChange: 24 * 3600
            }
        }
    }

    /// Makes a link's token for `email` of the user, in the caller's transaction; answers the token to mail.
    static func issue(userID: UUID, email: String, purpose: Purpose, now: Date = Date(), in db: any SQLDatabase)
        async throws -> String
    {
        let token = RefreshTokens.make()
        let created = StoredTime.milliseconds(now)
        try await db.raw(
            """
            DELETE FROM email_tokens WHERE user_id = \(bind: userID.lowercased) AND purpose = \(bind: purpose.rawValue)
            """
        ).run()
        try await db.raw(
            """
            INSERT INTO email_tokens (token_hash, user_id, purpose, email, created_at, expires_at)
            VALUES (\(bind: RefreshTokens.hash(token)), \(bind: userID.lowercased), \(bind: purpose.rawValue), \(bind: email),
                \(bind: created), \(bind: created + Int(purpose.lifetime * 1000)))
            """
        ).run()
        return token
    }

    /// The address the link behind `tokenHash` was mailed to, while it is unused and unexpired; nil otherwise.
    static func unusedEmail(tokenHash: String, purposes: Set<Purpose>, now: Date = Date(), in db: any SQLDatabase)
        async throws -> String?
    {
        try await db.raw(
            """
            SELECT email FROM email_tokens WHERE token_hash = \(bind: tokenHash) AND purpose IN (\(binds: purposes.map(\.rawValue)))
                AND used_at IS NULL AND expires_at > \(bind: StoredTime.milliseconds(now))
            """
        ).first()?.decode(column: "email", as: String.self)
    }

    /// Uses up the link behind `tokenHash`: answers whose it was and the address it went to, once, while it is unexpired
    /// and the account is open with that address still; nil otherwise.
    static func redeem(tokenHash: String, purpose: Purpose, now: Date = Date(), in db: any SQLDatabase) async throws
        -> (userID: UUID, email: String)?
    {
        let now = StoredTime.milliseconds(now)
        guard
            let row = try await db.raw(
                """
                UPDATE email_tokens SET used_at = \(bind: now)
                WHERE token_hash = \(bind: tokenHash) AND purpose = \(bind: purpose.rawValue) AND used_at IS NULL
                    AND expires_at > \(bind: now)
                    AND EXISTS (SELECT 1 FROM users WHERE users.id = email_tokens.user_id AND users.deleted_at IS NULL
                        AND users.email = email_tokens.email)
                RETURNING user_id, email
                """
            ).first()
        else { return nil }
        return (try row.decodeUUID(column: "user_id"), try row.decode(column: "email", as: String.self))
    }
}
