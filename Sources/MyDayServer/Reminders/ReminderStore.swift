import Crypto
import Foundation
import MyDaySearch
import SQLKit

/// The people's reminders, and the claim that sends each at most once a day whichever node sees it due.
struct ReminderStore: Sendable {
    let driver: any DatabaseDriver

    static let migration = Migration(
        version: 14, name: "daily reminders",
        statements: [
            """
            CREATE TABLE reminders (
                user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                minute_of_day BIGINT NOT NULL,
                tz TEXT NOT NULL,
                days BIGINT NOT NULL,
                email BIGINT NOT NULL,
                last_day BIGINT NOT NULL DEFAULT 0,
                updated_at BIGINT NOT NULL
            )
            """
        ]
    )

    func reminder(userID: UUID) async throws -> Reminder? {
        try await driver.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.columns) FROM reminders WHERE user_id = \(bind: userID.lowercased)")
                .first().map(Self.reminder)
        }
    }

    /// Sets the person's reminder. A new time on a day it was already sent does not send it again that day.
    func save(_ reminder: Reminder) async throws {
        try await driver.write { db in
            try await db.raw(
                """
                INSERT INTO reminders (user_id, minute_of_day, tz, days, email, last_day, updated_at)
                VALUES (\(bind: reminder.userID.lowercased), \(bind: reminder.minuteOfDay), \(bind: reminder.zoneName),
                    \(bind: Reminder.bits(reminder.days)), \(bind: reminder.email ? 1 : 0), 0, \(bind: StoredTime.now()))
                ON CONFLICT (user_id) DO UPDATE SET minute_of_day = excluded.minute_of_day, tz = excluded.tz,
                    days = excluded.days, email = excluded.email, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// Ends the person's reminder; answers whether there was one.
    @discardableResult
    func delete(userID: UUID) async throws -> Bool {
        try await driver.write { db in
            try await db.raw("DELETE FROM reminders WHERE user_id = \(bind: userID.lowercased) RETURNING user_id").all()
                .isEmpty == false
        }
    }

    /// The reminders of live accounts.
    func all() async throws -> [Reminder] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.columns) FROM reminders
                WHERE user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
                """
            ).all().map(Self.reminder)
        }
    }

    /// Marks `day` as the reminder's, once: answers true to exactly one caller however many nodes ask, and false when
    /// the day was already claimed (or the reminder is gone). `then` runs in the same transaction, for the claimant.
    func claim(
        _ reminder: Reminder, day: LocalDay, then: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws -> Bool {
        try await driver.write { db in
            let claimed = try await db.raw(
                """
                UPDATE reminders SET last_day = \(bind: day.number)
                WHERE user_id = \(bind: reminder.userID.lowercased) AND last_day < \(bind: day.number)
                RETURNING user_id
                """
            ).all()
            guard !claimed.isEmpty else { return false }
            try await then(db)
            return true
        }
    }

    /// Whether the person made an entry on `day` (as the Library groups entries).
    func hasEntry(userID: UUID, on day: LocalDay) async throws -> Bool {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT 1 AS found FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND local_day = \(bind: day.number) AND deleted_at IS NULL
                LIMIT 1
                """
            ).first() != nil
        }
    }

    private static let columns = "user_id, minute_of_day, tz, days, email, last_day"

    private static func reminder(_ row: any SQLRow) throws -> Reminder {
        Reminder(
            userID: try row.decodeUUID(column: "user_id"), minuteOfDay: try row.decode(column: "minute_of_day", as: Int.self),
            zoneName: try row.decode(column: "tz", as: String.self),
            days: Reminder.days(bits: try row.decode(column: "days", as: Int.self)),
            email: try row.decode(column: "email", as: Int.self) != 0, lastDay: try row.decode(column: "last_day", as: Int.self))
    }
}

/// The token of a reminder mail's stop link: the account's id and its signature with the server's secret. It does not expire:
/// stopping reminders is always allowed, and it can do nothing else.
struct ReminderStopToken: Sendable {
    private let key: SymmetricKey

    init(secret: [UInt8]) {
        key = SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(for: Data("myday reminder stop".utf8), using: SymmetricKey(data: secret)))
    }

    func token(for userID: UUID) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(userID.lowercased.utf8), using: key)
        return userID.lowercased + Data(mac).base64URLEncodedString()
    }

    /// The account a token stops reminders of; nil for a token this server did not make.
    func userID(of token: String) -> UUID? {
        guard token.count > 36, let id = UUID(uuidString: String(token.prefix(36))),
            let mac = Data(base64URLEncoded: String(token.dropFirst(36))),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(id.lowercased.utf8), using: key)
        else { return nil }
        return id
    }
}
