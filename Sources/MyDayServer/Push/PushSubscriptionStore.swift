import Foundation
import SQLKit

/// A browser that gets the person's reminders as notifications: its push service URL and its keys (RFC 8291).
struct PushSubscriptionRecord: Sendable, Equatable {
    let id: UUID
    let userID: UUID
    let endpoint: String
    /// The browser's P-256 public key, uncompressed, base64url.
    let p256dh: String
    /// The browser's 16-byte secret, base64url.
    let auth: String
    let createdAt: Int
}

/// The browsers each person subscribed; an endpoint belongs to one account at a time.
struct PushSubscriptionStore: Sendable {
    let driver: any DatabaseDriver
    /// An account keeps this many of its newest subscriptions.
    static let perAccount = 20

    static let migration = Migration(
        version: 15, name: "web push subscriptions",
        statements: [
            """
            CREATE TABLE push_subscriptions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                endpoint TEXT NOT NULL UNIQUE,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id, created_at)",
        ]
    )

    /// The person's subscriptions, newest first.
    func subscriptions(userID: UUID) async throws -> [PushSubscriptionRecord] {
        try await driver.read { db in try await Self.subscriptions(userID: userID, in: db) }
    }

    func subscription(id: UUID, userID: UUID) async throws -> PushSubscriptionRecord? {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.columns) FROM push_subscriptions
                WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased)
                """
            ).first().map(Self.record)
        }
    }

    /// Subscribes `endpoint` for the person: the same endpoint again keeps its id and takes the new keys; an endpoint
    /// another account had becomes this person's (the browser notifies whoever signed in on it last). Answers the
    /// subscription and whether it is new; the account's oldest beyond `perAccount` go.
    func subscribe(userID: UUID, endpoint: String, p256dh: String, auth: String) async throws -> (
        PushSubscriptionRecord, created: Bool
    ) {
        try await driver.write { db in
            let user = userID.lowercased
            let existing = try await db.raw(
                "SELECT \(unsafeRaw: Self.columns) FROM push_subscriptions WHERE endpoint = \(bind: endpoint)"
            ).first().map(Self.record)
            let record: PushSubscriptionRecord
            if let existing, existing.userID == userID {
                try await db.raw(
                    """
                    UPDATE push_subscriptions SET p256dh = \(bind: p256dh), auth = \(bind: auth)
                    WHERE id = \(bind: existing.id.lowercased)
                    """
                ).run()
                record = PushSubscriptionRecord(
                    id: existing.id, userID: userID, endpoint: endpoint, p256dh: p256dh, auth: auth,
                    createdAt: existing.createdAt)
            } else {
                if let existing {
                    try await db.raw("DELETE FROM push_subscriptions WHERE id = \(bind: existing.id.lowercased)").run()
                }
                record = PushSubscriptionRecord(
                    id: UUID(), userID: userID, endpoint: endpoint, p256dh: p256dh, auth: auth, createdAt: StoredTime.now())
                try await db.raw(
                    """
                    INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at)
                    VALUES (\(bind: record.id.lowercased), \(bind: user), \(bind: endpoint), \(bind: p256dh), \(bind: auth),
                        \(bind: record.createdAt))
                    """
                ).run()
            }
            let kept = try await Self.subscriptions(userID: userID, in: db)
            for old in kept.dropFirst(Self.perAccount) {
                try await db.raw("DELETE FROM push_subscriptions WHERE id = \(bind: old.id.lowercased)").run()
            }
            return (record, existing?.userID != userID)
        }
    }

    /// Ends one of the person's subscriptions; answers whether there was one.
    @discardableResult
    func delete(id: UUID, userID: UUID) async throws -> Bool {
        try await driver.write { db in
            try await db.raw(
                """
                DELETE FROM push_subscriptions WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased)
                RETURNING id
                """
            ).all().isEmpty == false
        }
    }

    /// Ends every subscription of the person (signing out everywhere, a new password, a closed account).
    static func endAll(userID: UUID, in db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM push_subscriptions WHERE user_id = \(bind: userID.lowercased)").run()
    }

    static func subscriptions(userID: UUID, in db: any SQLDatabase) async throws -> [PushSubscriptionRecord] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM push_subscriptions WHERE user_id = \(bind: userID.lowercased)
            ORDER BY created_at DESC, id
            """
        ).all().map(Self.record)
    }

    private static let columns = "id, user_id, endpoint, p256dh, auth, created_at"

    private static func record(_ row: any SQLRow) throws -> PushSubscriptionRecord {
        PushSubscriptionRecord(
            id: try row.decodeUUID(column: "id"), userID: try row.decodeUUID(column: "user_id"),
            endpoint: try row.decode(column: "endpoint", as: String.self),
            p256dh: try row.decode(column: "p256dh", as: String.self), auth: try row.decode(column: "auth", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int.self))
    }
}
