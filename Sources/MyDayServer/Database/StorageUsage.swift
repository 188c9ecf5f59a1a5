import Foundation
import SQLKit

/// What a user's diary takes on the server, as the storage quota counts it: the audio of every live entry and every
/// entry in Recently deleted (declared
/// sizes, so audio still on its way is counted too), the text of every live entry (title, tags and transcripts, as
/// UTF-8 bytes, kept in `text_bytes` by a trigger on every write) and every export archive not yet deleted.
/// (PostgreSQL sums BIGINTs as NUMERIC: the casts bring the figures back to integers.)
enum StorageUsage {
    static func bytes(userID: UUID, in db: any SQLDatabase) async throws -> Int {
        try await db.raw(
            """
            SELECT CAST(
                COALESCE((SELECT SUM(COALESCE(size_bytes, 0) + text_bytes) FROM entries
                    WHERE user_id = \(bind: userID.lowercased) AND (deleted_at IS NULL OR purge_at IS NOT NULL)), 0)
                + COALESCE((SELECT SUM(size_bytes) FROM exports
                    WHERE user_id = \(bind: userID.lowercased) AND blob_key IS NOT NULL AND size_bytes IS NOT NULL), 0)
                AS BIGINT) AS used
            """
        ).first()?.decode(column: "used", as: Int.self) ?? 0
    }

    /// The UTF-8 bytes of an entry's text (`row` is `NEW.` in a trigger).
    private static func textBytes(_ row: String = "") -> String {
        """
        octet_length(COALESCE(\(row)title, '')) + CASE WHEN \(row)tags = '[]' THEN 0 ELSE octet_length(\(row)tags) END
            + octet_length(COALESCE(\(row)transcript_raw, '')) + octet_length(COALESCE(\(row)transcript_clean, ''))
        """
    }

    /// Text counts toward the quota, and on SQLite the words of deleted entries leave the full-text index at once
    /// (FTS5's `secure-delete`) rather than at its next merge.
    static let textMigration = Migration(
        version: 11, name: "text counts toward storage; deleted words leave the search index at once",
        statements: ["ALTER TABLE entries ADD COLUMN text_bytes BIGINT NOT NULL DEFAULT 0"],
        sqlite: [
            """
            CREATE TRIGGER entries_text_bytes_insert AFTER INSERT ON entries BEGIN
                UPDATE entries SET text_bytes = \(textBytes("NEW.")) WHERE rowid = NEW.rowid;
            END
            """,
            """
            CREATE TRIGGER entries_text_bytes_update AFTER UPDATE OF title, tags, transcript_raw, transcript_clean ON entries
            BEGIN
                UPDATE entries SET text_bytes = \(textBytes("NEW.")) WHERE rowid = NEW.rowid;
            END
            """,
            "UPDATE entries SET text_bytes = \(textBytes())",
            "INSERT INTO entries_search (entries_search, rank) VALUES ('secure-delete', 1)",
            "INSERT INTO entries_labels (entries_labels, rank) VALUES ('secure-delete', 1)",
        ],
        postgres: [
            """
            CREATE FUNCTION entries_text_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                NEW.text_bytes := \(textBytes("NEW."));
                RETURN NEW;
            END
            $$
            """,
            """
            CREATE TRIGGER entries_text_bytes BEFORE INSERT OR UPDATE OF title, tags, transcript_raw, transcript_clean
            ON entries FOR EACH ROW EXECUTE FUNCTION entries_text_bytes()
            """,
            "UPDATE entries SET text_bytes = \(textBytes())",
        ]
    )

    /// "1.2 GB": a size as people read it, in decimal units like the Files app.
    static func spoken(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }
}

/// The user's storage quota would be exceeded: answered as 413 with both figures.
struct QuotaExceeded: Error, Equatable {
    let usedBytes: Int
    let quotaBytes: Int
    let neededBytes: Int
}
