import Foundation
import MyDayModels
import SQLKit

/// Entries imported from files: each remembers the SHA-256 of its source, so importing the same file again answers the
/// entry it made (ADR 0040).
extension EntryStore {
    /// `source_sha256` (unique per user among entries that have one) and the jobs' `priority`.
    static let importsMigration = Migration(
        version: 19, name: "imported entries: their source's hash; their transcription after new recordings",
        statements: [
            "ALTER TABLE entries ADD COLUMN source_sha256 TEXT",
            "CREATE UNIQUE INDEX entries_source ON entries (user_id, source_sha256) WHERE source_sha256 IS NOT NULL",
            "ALTER TABLE jobs ADD COLUMN priority BIGINT NOT NULL DEFAULT 0",
        ])

    /// The user's live entry imported from `sha256` other than `id`, in the transaction of `db`. A deleted entry gives
    /// its source up (the person may import the file again, as a new entry).
    static func importedTwin(of id: UUID, sha256: String, userID: UUID, in db: any SQLDatabase) async throws -> EntryRecord? {
        guard
            let row = try await db.raw(
                """
                SELECT \(unsafeRaw: EntryRecord.columns) FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND source_sha256 = \(bind: sha256) AND id <> \(bind: id.lowercased)
                """
            ).first()
        else { return nil }
        let twin = try EntryRecord(row: row)
        guard twin.deletedAt != nil else { return twin }
        try await db.raw("UPDATE entries SET source_sha256 = NULL WHERE id = \(bind: twin.id.lowercased)").run()
        return nil
    }

    /// Whether the entry was imported from a file (it has a source hash), in the transaction of `db`.
    static func isImported(_ id: UUID, in db: any SQLDatabase) async throws -> Bool {
        try await db.raw("SELECT 1 AS imported FROM entries WHERE id = \(bind: id.lowercased) AND source_sha256 IS NOT NULL")
            .first() != nil
    }

    /// Moves an imported entry to the moment its file was recorded, keeping its time zone.
    func moveToRecordingTime(_ entry: EntryRecord, recordedAt: Date) async throws -> EntryRecord? {
        var edit = EntryEdit()
        edit.moment = EntryMoment(createdAt: recordedAt, timeZone: entry.timeZone)
        return try await self.edit(id: entry.id, userID: entry.userID, edit)
    }
}
