import Foundation
import SQLKit

/// Exports: asked for by a user, built by a `build_export` job, mailed by a `mail_export` job.
struct ExportStore: Sendable {
    let driver: any DatabaseDriver
    /// Rung when a build is queued, so this process's worker starts it at once.
    let doorbell: JobDoorbell

    /// Another export of the user is queued or building: one builds at a time.
    struct AlreadyBuilding: Error {}

    /// Records a new export and queues its build, in one transaction; its link will be mailed to `email` (the account's
    /// verified address) when one is given. Throws `AlreadyBuilding` while another export of the user is on its way,
    /// and `QuotaExceeded` when the audio of `range` would not fit beside the rest.
    func create(
        userID: UUID, from: String, to: String, range: (start: Date, end: Date), timeZone: String, email: String?,
        formats: [String], quotaBytes: Int = .max
    ) async throws -> ExportRecord {
        let id = UUID()
        let now = StoredTime.now()
        let formatsJSON = String(decoding: try JSONEncoder().encode(formats), as: UTF8.self)
        defer { doorbell.ring() }
        let engine = driver.engine
        return try await driver.write { db in
            if engine == .postgres {
                // Two requests of one user are decided one after the other (SQLite has a single writer anyway).
                try await db.raw("SELECT id FROM users WHERE id = \(bind: userID.lowercased) FOR UPDATE").run()
            }
            let unfinished = try await db.raw(
                """
                SELECT COUNT(*) AS n FROM exports
                WHERE user_id = \(bind: userID.lowercased) AND status IN ('queued', 'building')
                """
            ).first()?.decode(column: "n", as: Int.self)
            guard unfinished == 0 else { throw AlreadyBuilding() }
            let needed = try await Self.audioBytes(userID: userID, range: range, in: db)
            let used = try await StorageUsage.bytes(userID: userID, in: db)
            guard used + needed <= quotaBytes else {
                throw QuotaExceeded(usedBytes: used, quotaBytes: quotaBytes, neededBytes: needed)
            }
            try await db.raw(
                """
                INSERT INTO exports (id, user_id, from_date, to_date, tz, email, formats, status, created_at, updated_at)
                VALUES (\(bind: id.lowercased), \(bind: userID.lowercased), \(bind: from), \(bind: to), \(bind: timeZone),
                    \(bind: email), \(bind: formatsJSON), 'queued', \(bind: now), \(bind: now))
                """
            ).run()
            _ = try await JobQueue.enqueue(
                kind: ExportBuildHandler.kind, payload: ExportJob(exportID: id).json, userID: userID, in: db)
            return try await Self.export(id: id, in: db)!
        }
    }

    /// The audio an archive of `range` will hold: about its size.
    private static func audioBytes(userID: UUID, range: (start: Date, end: Date), in db: any SQLDatabase) async throws -> Int {
        try await db.raw(
            """
            SELECT CAST(COALESCE(SUM(size_bytes), 0) AS BIGINT) AS bytes FROM entries
            WHERE user_id = \(bind: userID.lowercased) AND deleted_at IS NULL AND status <> 'pending_upload'
                AND created_at >= \(bind: StoredTime.milliseconds(range.start))
                AND created_at < \(bind: StoredTime.milliseconds(range.end))
            """
        ).first()?.decode(column: "bytes", as: Int.self) ?? 0
    }

    /// The user's export with this id.
    func export(id: UUID, userID: UUID) async throws -> ExportRecord? {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: ExportRecord.columns) FROM exports
                WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased)
                """
            ).first().map(ExportRecord.init(row:))
        }
    }

    /// The export whose archive is at `blobKey`, if its user's account is open.
    func export(blobKey: String) async throws -> ExportRecord? {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: ExportRecord.columns) FROM exports WHERE blob_key = \(bind: blobKey)
                    AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
                """
            ).first().map(ExportRecord.init(row:))
        }
    }

    /// The user's exports, newest first.
    func exports(userID: UUID) async throws -> [ExportRecord] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: ExportRecord.columns) FROM exports WHERE user_id = \(bind: userID.lowercased)
                ORDER BY created_at DESC LIMIT 100
                """
            ).all().map(ExportRecord.init(row:))
        }
    }

    /// Marks a queued (or interrupted) export as building and answers it; nil when it is gone or finished.
    func startBuilding(id: UUID) async throws -> ExportRecord? {
        try await driver.write { db in
            try await db.raw(
                """
                UPDATE exports SET status = 'building', updated_at = \(bind: StoredTime.now())
                WHERE id = \(bind: id.lowercased) AND status IN ('queued', 'building')
                """
            ).run()
            return try await Self.export(id: id, in: db).flatMap { $0.status == .building ? $0 : nil }
        }
    }

    /// One page of the entries an export holds: live, recorded in [start, end), in recording order after `after`.
    func entries(userID: UUID, start: Date, end: Date, after: (createdAt: Int, id: String)?, limit: Int) async throws
        -> [ExportedEntry]
    {
        let after = after ?? (Int.min, "")
        return try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: EntryRecord.columns), words FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND deleted_at IS NULL
                    AND created_at >= \(bind: StoredTime.milliseconds(start)) AND created_at < \(bind: StoredTime.milliseconds(end))
                    AND (created_at > \(bind: after.createdAt) OR (created_at = \(bind: after.createdAt) AND id > \(bind: after.id)))
                ORDER BY created_at, id LIMIT \(bind: limit)
                """
            ).all().map { row in
                ExportedEntry(
                    entry: try EntryRecord(row: row), wordsJSON: try row.decodeOptional(column: "words", as: String.self))
            }
        }
    }

    /// Ready exports whose link expired before `now` (at most 100 at a time), of one user or of everyone.
    func expiredArchives(now: Date, userID: UUID? = nil) async throws -> [ExportRecord] {
        let user: SQLQueryString = userID.map { "AND user_id = \(bind: $0.lowercased)" } ?? ""
        return try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: ExportRecord.columns) FROM exports
                WHERE status = 'ready' AND link_expires_at < \(bind: StoredTime.milliseconds(now)) \(user) LIMIT 100
                """
            ).all().map(ExportRecord.init(row:))
        }
    }

    /// Removes the user's export; answers the key of the archive the caller must now delete (nil when none was
    /// built), or throws `NotFound`. A build under way finds its export gone and deletes what it made.
    func delete(id: UUID, userID: UUID) async throws -> String? {
        try await driver.write { db in
            guard
                let row = try await db.raw(
                    """
                    DELETE FROM exports WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased)
                    RETURNING blob_key
                    """
                ).first()
            else { throw NotFound() }
            try await JobQueue.remove(
                kinds: ["build_export", "mail_export"], states: ["queued"], naming: id, userID: userID, in: db)
            return try row.decodeOptional(column: "blob_key", as: String.self)
        }
    }

    /// The user has no export with this id.
    struct NotFound: Error {}

    /// Ends every export of the user: ready links stop working at once (their archives go with the next clean-up),
    /// and exports on their way are stopped, with `reason`. In the caller's transaction (signing out everywhere, a
    /// new password, closing the account).
    static func endAll(userID: UUID, reason: String, in db: any SQLDatabase) async throws {
        let now = StoredTime.now()
        try await db.raw(
            """
            UPDATE exports SET link_expires_at = \(bind: now - 1), failure_reason = \(bind: reason), updated_at = \(bind: now)
            WHERE user_id = \(bind: userID.lowercased) AND status = 'ready' AND link_expires_at >= \(bind: now)
            """
        ).run()
        try await db.raw(
            """
            UPDATE exports SET status = 'failed', failure_reason = \(bind: reason), updated_at = \(bind: now)
            WHERE user_id = \(bind: userID.lowercased) AND status IN ('queued', 'building')
            """
        ).run()
    }

    /// Ends the user's exports that hold (or are gathering) an entry recorded at `recordedAt`, which was just deleted:
    /// no archive keeps words its owner deleted. In the transaction that deletes the entry.
    static func endExports(holding recordedAt: Date, userID: UUID, in db: any SQLDatabase) async throws {
        let now = StoredTime.now()
        let candidates = try await db.raw(
            """
            SELECT \(unsafeRaw: ExportRecord.columns) FROM exports WHERE user_id = \(bind: userID.lowercased)
                AND (status IN ('queued', 'building') OR (status = 'ready' AND link_expires_at >= \(bind: now)))
            """
        ).all().map(ExportRecord.init(row:))
        for export in candidates {
            guard let zone = TimeZone(identifier: export.timeZone),
                let range = ExportRecord.interval(from: export.from, to: export.to, timeZone: zone),
                range.start <= recordedAt, recordedAt < range.end
            else { continue }
            if export.status == .ready {
                try await db.raw(
                    """
                    UPDATE exports SET link_expires_at = \(bind: now - 1), updated_at = \(bind: now),
                        failure_reason = 'An entry it held was deleted; export the days again for an archive without it.'
                    WHERE id = \(bind: export.id.lowercased) AND status = 'ready'
                    """
                ).run()
            } else if export.status == .building {
                try await db.raw(
                    """
                    UPDATE exports SET status = 'failed', updated_at = \(bind: now),
                        failure_reason = 'An entry was deleted while the archive was being made; export the days again.'
                    WHERE id = \(bind: export.id.lowercased) AND status = 'building'
                    """
                ).run()
            }
        }
    }

    /// Whether the export is still being built (and so still wanted).
    func isBuilding(id: UUID) async throws -> Bool {
        try await driver.read { db in try await Self.export(id: id, in: db)?.status == .building }
    }

    /// Records that an expired (or ended) export's archive is gone.
    func markArchiveDeleted(id: UUID) async throws {
        try await driver.write { db in
            try await db.raw(
                """
                UPDATE exports SET status = 'expired', blob_key = NULL, updated_at = \(bind: StoredTime.now())
                WHERE id = \(bind: id.lowercased) AND status = 'ready'
                """
            ).run()
        }
    }

    /// Records a finished archive, in the transaction that finishes its build; false when the export is no longer
    /// building (deleted, stopped or its account closed meanwhile): then the archive is not wanted.
    static func markReady(
        id: UUID, counts: ExportCounts, sizeBytes: Int, blobKey: String, linkExpiresAt: Date, in db: any SQLDatabase
    ) async throws -> Bool {
        try await db.raw(
            """
            UPDATE exports SET status = 'ready', entry_count = \(bind: counts.entries), audio_count = \(bind: counts.audioFiles),
                untranscribed_count = \(bind: counts.untranscribed), size_bytes = \(bind: sizeBytes), blob_key = \(bind: blobKey),
                link_expires_at = \(bind: StoredTime.milliseconds(linkExpiresAt)), updated_at = \(bind: StoredTime.now())
            WHERE id = \(bind: id.lowercased) AND status = 'building'
                AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
            RETURNING id
            """
        ).first() != nil
    }

    static func markFailed(id: UUID, reason: String, in db: any SQLDatabase) async throws {
        try await db.raw(
            """
            UPDATE exports SET status = 'failed', failure_reason = \(bind: reason), updated_at = \(bind: StoredTime.now())
            WHERE id = \(bind: id.lowercased) AND status <> 'ready'
            """
        ).run()
    }

    static func export(id: UUID, in db: any SQLDatabase) async throws -> ExportRecord? {
        try await db.raw("SELECT \(unsafeRaw: ExportRecord.columns) FROM exports WHERE id = \(bind: id.lowercased)")
            .first().map(ExportRecord.init(row:))
    }
}

/// An entry with what an export adds to it: the recognised words and their timings, as stored.
struct ExportedEntry: Sendable {
    let entry: EntryRecord
    let wordsJSON: String?
}

/// What an archive holds.
struct ExportCounts: Sendable, Equatable {
    var entries = 0
    var audioFiles = 0
    var untranscribed = 0
}

/// The payload of `build_export` and `mail_export` jobs.
struct ExportJob: JobPayload {
    let exportID: UUID

    enum CodingKeys: String, CodingKey { case exportID = "export_id" }
}
