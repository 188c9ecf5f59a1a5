import Foundation
import SQLKit

/// A user as the server keeps them.
struct UserRecord: Sendable, Equatable {
    let id: UUID
    let email: String
    let createdAt: Date
    let tokenVersion: Int
}

/// Users and their sign-in identities.
struct UserStore: Sendable {
    let driver: any DatabaseDriver

    enum RegistrationError: Error { case emailTaken }

    /// Creates a user who signs in with `email` (already normalised) and a bcrypt hash.
    func registerEmailUser(email: String, passwordHash: String) async throws -> UserRecord {
        let user = UserRecord(
            id: UUID(), email: email, createdAt: StoredTime.date(milliseconds: StoredTime.now()), tokenVersion: 0)
        let createdAt = StoredTime.milliseconds(user.createdAt)
        return try await driver.write { db in
            let inserted = try await db.raw(
                """
                INSERT INTO users (id, email, password_hash, created_at) VALUES (\(bind: user.id.lowercased), \(bind: email), \(bind: passwordHash), \(bind: createdAt))
                ON CONFLICT (email) DO NOTHING RETURNING id
                """
            ).first()
            guard inserted != nil else { throw RegistrationError.emailTaken }
            try await db.raw(
                "INSERT INTO identities (provider, subject, user_id, created_at) VALUES ('email', \(bind: email), \(bind: user.id.lowercased), \(bind: createdAt))"
            ).run()
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

    /// The live user with this id.
    func user(id: UUID) async throws -> UserRecord? {
        try await driver.read { db in
            try await db.raw(
                "SELECT \(unsafeRaw: Self.columns) FROM users WHERE id = \(bind: id.lowercased) AND deleted_at IS NULL"
            )
            .first().map(Self.user(from:))
        }
    }

    static let columns = "id, email, created_at, token_version"

    static func user(from row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.decodeUUID(column: "id"),
            email: try row.decode(column: "email", as: String.self),
            createdAt: StoredTime.date(milliseconds: try row.decode(column: "created_at", as: Int.self)),
            tokenVersion: try row.decode(column: "token_version", as: Int.self)
        )
    }
}
