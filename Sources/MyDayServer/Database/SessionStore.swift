import Foundation
import SQLKit

/// Refresh tokens, stored as hashes and grouped in families: one family per sign-in, one live token per family.
struct SessionStore: Sendable {
    let driver: any DatabaseDriver

    enum Rotation: Sendable, Equatable {
        /// The token was live; it is now used and `newHash` replaces it.
        case rotated(userID: UUID)
        /// The token had been used before: its whole family is now revoked.
        case reused
        /// Unknown, expired or revoked.
        case invalid
    }

    /// Starts a new family (a new sign-in) with its first token.
    func startFamily(userID: UUID, tokenHash: String, expiresAt: Date) async throws {
        try await driver.write { db in
            try await Self.insert(db, userID: userID, familyID: UUID(), tokenHash: tokenHash, expiresAt: expiresAt)
        }
    }

    /// Marks the token behind `presentedHash` used and adds `newHash` to its family, in one transaction.
    func rotate(presentedHash: String, newHash: String, newExpiresAt: Date) async throws -> Rotation {
        let now = StoredTime.now()
        return try await driver.write { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT r.user_id, r.family_id, r.expires_at, r.used_at, r.revoked_at FROM refresh_tokens r
                    JOIN users u ON u.id = r.user_id WHERE r.token_hash = \(bind: presentedHash) AND u.deleted_at IS NULL
                    """
                ).first()
            else { return .invalid }
            let familyID = try row.decode(column: "family_id", as: String.self)
            if try row.decode(column: "revoked_at", as: Int?.self) != nil || row.decode(column: "expires_at", as: Int.self) <= now
            {
                return .invalid
            }
            if try row.decode(column: "used_at", as: Int?.self) != nil {
                try await db.raw(
                    "UPDATE refresh_tokens SET revoked_at = \(bind: now) WHERE family_id = \(bind: familyID) AND revoked_at IS NULL"
                ).run()
                return .reused
            }
            let userID = try row.decodeUUID(column: "user_id")
            try await db.raw("UPDATE refresh_tokens SET used_at = \(bind: now) WHERE token_hash = \(bind: presentedHash)").run()
            try await Self.insert(
                db, userID: userID, familyID: UUID(uuidString: familyID)!, tokenHash: newHash, expiresAt: newExpiresAt)
            return .rotated(userID: userID)
        }
    }

    /// Revokes the family the token belongs to (sign-out of that login on every device that shares it).
    func revokeFamily(ofTokenHash hash: String) async throws {
        let now = StoredTime.now()
        try await driver.write { db in
            try await db.raw(
                """
                UPDATE refresh_tokens SET revoked_at = \(bind: now)
                WHERE revoked_at IS NULL AND family_id IN (SELECT family_id FROM refresh_tokens WHERE token_hash = \(bind: hash))
                """
            ).run()
        }
    }

    private static func insert(_ db: any SQLDatabase, userID: UUID, familyID: UUID, tokenHash: String, expiresAt: Date)
        async throws
    {
        try await db.raw(
            """
            INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at)
            VALUES (\(bind: UUID().lowercased), \(bind: userID.lowercased), \(bind: familyID.lowercased), \(bind: tokenHash), \(bind: StoredTime.now()), \(bind: StoredTime.milliseconds(expiresAt)))
            """
        ).run()
    }
}
