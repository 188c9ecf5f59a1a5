import Foundation
import SQLKit

/// A new address for an account: asked for by its owner, it changes only when the link mailed there is opened, and
/// the old address is told.
extension UserStore {
    /// What opening a new address's link did.
    enum EmailChange: Sendable, Equatable {
        /// The account's address is the new one, confirmed; the old one is being told.
        case changed(UserRecord)
        /// Another account has that address now; nothing changed and the link stays good for nothing else.
        case addressTaken
        /// No such link, used, expired, or not a new address's link.
        case invalid
    }

    /// Queues the mail with the link that confirms `newEmail` for the user, bound to `tokenVersion` (the asking
    /// request's): once a sign-out everywhere, a new password or a reset moved it on, the mail makes no link.
    func queueEmailChange(userID: UUID, newEmail: String, tokenVersion: Int) async throws {
        try await driver.write { db in
            _ = try await JobQueue.enqueue(
                kind: AccountMail.Kind.emailChange.rawValue,
                payload: AccountMail(userID: userID, email: newEmail, tokenVersion: tokenVersion).json, userID: userID, in: db)
        }
    }

    /// Makes the link's new address the account's, confirmed, in one transaction: the address's own sign-in follows it,
    /// every link still in the mail (to either address) stops working, and the old address is told.
    func confirmEmailChange(tokenHash: String, now: Date = Date()) async throws -> EmailChange {
        let lock: SQLQueryString = driver.engine == .postgres ? " FOR UPDATE OF u" : ""
        return try await driver.write { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT t.user_id, t.email AS new_email, u.email AS old_email
                    FROM email_tokens t JOIN users u ON u.id = t.user_id
                    WHERE t.token_hash = \(bind: tokenHash) AND t.purpose = \(bind: EmailTokens.Purpose.emailChange.rawValue)
                        AND t.used_at IS NULL AND t.expires_at > \(bind: StoredTime.milliseconds(now))
                        AND u.deleted_at IS NULL\(lock)
                    """
                ).first()
            else { return .invalid }
            let userID = try row.decodeUUID(column: "user_id")
            let newEmail = try row.decode(column: "new_email", as: String.self)
            let oldEmail = try row.decode(column: "old_email", as: String.self)
            let taken = try await db.raw(
                "SELECT id FROM users WHERE email = \(bind: newEmail) AND id <> \(bind: userID.lowercased)"
            ).first()
            guard taken == nil else { return .addressTaken }
            try await db.raw(
                """
                UPDATE users SET email = \(bind: newEmail), email_verified_at = \(bind: StoredTime.milliseconds(now))
                WHERE id = \(bind: userID.lowercased)
                """
            ).run()
            try await db.raw(
                """
                UPDATE identities SET subject = \(bind: newEmail), email = \(bind: newEmail)
                WHERE user_id = \(bind: userID.lowercased) AND provider = 'email'
                """
            ).run()
            try await db.raw("DELETE FROM email_tokens WHERE user_id = \(bind: userID.lowercased)").run()
            if oldEmail != newEmail {
                _ = try await JobQueue.enqueue(
                    kind: AccountMail.Kind.emailChanged.rawValue, payload: AccountMail(userID: userID, email: oldEmail).json,
                    userID: userID, in: db)
            }
            guard let user = try await Self.liveUser(userID, in: db) else { return .invalid }
            return .changed(user)
        }
    }
}
