import Foundation
import SQLKit

/// Recently deleted: a deleted entry keeps its words and audio for a while (`purge_at`), hidden from everything else
/// (lists, search, days, exports, sync, whose other devices see it deleted), so the person can bring it back; then,
/// or when the person asks, it becomes a tombstone with nothing readable left.
extension EntryStore {
    static let recentlyDeletedMigration = Migration(
        version: 17, name: "deleted entries are kept for a while, to be brought back",
        statements: [
            "ALTER TABLE entries ADD COLUMN purge_at BIGINT",
            "CREATE INDEX entries_purge ON entries (purge_at) WHERE purge_at IS NOT NULL",
        ])

    /// How long a deleted entry can be brought back.
    static let productionRetention: TimeInterval = 30 * 24 * 3600

    /// What `moveToRecentlyDeleted` did.
    enum Deletion: Equatable {
        /// The user has no such live entry.
        case notFound
        /// Kept until `purgeAt`, hidden everywhere else.
        case kept(purgeAt: Date)
        /// Gone for good at once (its audio had not arrived: nothing to bring back); the caller removes `audioKey`'s blob.
        case erased(audioKey: String?)
    }

    /// Deletes the entry the way a person's deletion does: kept in Recently deleted until `now + retention`. Its id goes
    /// out in the next delta; its transcription stops (a queued job, and the phone's words it carries, go) and the
    /// exports that hold it end, in the same transaction.
    func moveToRecentlyDeleted(id: UUID, userID: UUID, now: Date = Date(), retention: TimeInterval) async throws -> Deletion {
        try await transaction { db in
            guard let entry = try await Self.liveEntry(db, id: id, userID: userID) else { return .notFound }
            try await JobQueue.remove(
                kinds: [TranscriptionHandler.kind], states: ["queued", "running"], naming: id, userID: userID, in: db)
            try await ExportStore.endExports(holding: entry.createdAt, userID: userID, in: db)
            guard entry.status != .pendingUpload else {
                try await Self.tombstone(entry, keepingUploadDeadline: false, in: db)
                driver.scrubAfterCommit()
                return .erased(audioKey: entry.audioKey)
            }
            let seq = try await Self.nextChange(db, userID: userID)
            let purgeAt = now.addingTimeInterval(retention)
            try await db.raw(
                """
                UPDATE entries SET deleted_at = \(bind: StoredTime.milliseconds(now)),
                    purge_at = \(bind: StoredTime.milliseconds(purgeAt)), change_seq = \(bind: seq),
                    updated_at = \(bind: StoredTime.now()), completing_until = NULL, upload_expires_at = NULL
                WHERE id = \(bind: id.lowercased)
                """
            ).run()
            return .kept(purgeAt: purgeAt)
        }
    }

    /// The user's entries in Recently deleted, the last deleted first, with when each goes for good.
    func recentlyDeleted(userID: UUID) async throws -> [(entry: EntryRecord, purgeAt: Date)] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: EntryRecord.columns), purge_at FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND purge_at IS NOT NULL
                ORDER BY deleted_at DESC, id
                """
            ).all().map { row in
                (try EntryRecord(row: row), StoredTime.date(milliseconds: try row.decode(column: "purge_at", as: Int.self)))
            }
        }
    }

    /// Brings the entry back from Recently deleted, as it was; it goes out in the next delta again. Nil when the user
    /// has no such entry there. (The quota counted it all along, so bringing it back takes no more room.)
    func restore(id: UUID, userID: UUID) async throws -> EntryRecord? {
        try await transaction { db in
            guard try await Self.recentlyDeletedEntry(db, id: id, userID: userID) != nil else { return nil }
            let seq = try await Self.nextChange(db, userID: userID)
            try await db.raw(
                """
                UPDATE entries SET deleted_at = NULL, purge_at = NULL, change_seq = \(bind: seq), updated_at = \(bind: StoredTime.now())
                WHERE id = \(bind: id.lowercased)
                """
            ).run()
            return try await Self.liveEntry(db, id: id, userID: userID)
        }
    }

    /// Deletes an entry of Recently deleted for good, now: nothing readable is left of it. Answers whether the user had
    /// it there and the audio key whose blob the caller must now remove.
    func erase(id: UUID, userID: UUID) async throws -> (found: Bool, audioKey: String?) {
        try await transaction { db in
            guard let entry = try await Self.recentlyDeletedEntry(db, id: id, userID: userID) else { return (false, nil) }
            try await Self.tombstone(entry, keepingUploadDeadline: false, in: db)
            driver.scrubAfterCommit()
            return (true, entry.audioKey)
        }
    }

    /// Deletes for good the entries whose time in Recently deleted ended before `now`, at most `limit`; answers the audio
    /// keys whose blobs the caller must now remove.
    func eraseExpired(now: Date, limit: Int = 100) async throws -> (erased: Int, audioKeys: [String]) {
        let due = try await driver.read { db in
            try await db.raw(
                """
                SELECT id, user_id FROM entries WHERE purge_at IS NOT NULL AND purge_at <= \(bind: StoredTime.milliseconds(now))
                LIMIT \(bind: limit)
                """
            ).all().map {
                (
                    UUID(uuidString: try $0.decode(column: "id", as: String.self)),
                    UUID(uuidString: try $0.decode(column: "user_id", as: String.self))
                )
            }
        }
        var keys: [String] = []
        var erased = 0
        for case (let id?, let userID?) in due {
            let result = try await erase(id: id, userID: userID)
            if result.found { erased += 1 }
            if let key = result.audioKey { keys.append(key) }
        }
        return (erased, keys)
    }

    private static func recentlyDeletedEntry(_ db: any SQLDatabase, id: UUID, userID: UUID) async throws -> EntryRecord? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: EntryRecord.columns) FROM entries
            WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased) AND purge_at IS NOT NULL
            """
        ).first().map(EntryRecord.init(row:))
    }
}
