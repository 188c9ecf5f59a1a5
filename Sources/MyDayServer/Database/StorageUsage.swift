import Foundation
import SQLKit

/// What a user's diary takes on the server, as the storage quota counts it: the audio of every live entry and every
/// entry in Recently deleted (declared sizes, so audio still on its way is counted too), the text of every live entry
/// (title, tags and transcripts, as UTF-8 bytes, kept in `text_bytes` by a trigger on every write) and every export
/// archive not yet deleted. The sum is kept in `users.used_bytes` by triggers on every write of an entry or an
/// export, so a check reads one row however long the diary is.
enum StorageUsage {
    static func bytes(userID: UUID, in db: any SQLDatabase) async throws -> Int {
        try await db.raw("SELECT used_bytes FROM users WHERE id = \(bind: userID.lowercased)").first()?
            .decode(column: "used_bytes", as: Int.self) ?? 0
    }

    /// What an entry's row (`OLD.` or `NEW.` in a trigger) adds to its owner's usage, in parentheses (PL/pgSQL's
    /// `IF` would otherwise end its condition at the `CASE`'s `THEN`).
    private static func entryBytes(_ row: String) -> String {
        "(CASE WHEN \(row)deleted_at IS NULL OR \(row)purge_at IS NOT NULL THEN COALESCE(\(row)size_bytes, 0) + \(row)text_bytes ELSE 0 END)"
    }

    /// What an export's row adds to its owner's usage.
    private static func exportBytes(_ row: String) -> String {
        "(CASE WHEN \(row)blob_key IS NOT NULL AND \(row)size_bytes IS NOT NULL THEN \(row)size_bytes ELSE 0 END)"
    }

    /// SQLite's triggers that keep `users.used_bytes` as rows of `table` come, change `columns` and go.
    private static func sqliteTotalTriggers(table: String, columns: String, bytes: (String) -> String) -> [String] {
        [
            """
            CREATE TRIGGER \(table)_used_insert AFTER INSERT ON \(table) BEGIN
                UPDATE users SET used_bytes = used_bytes + \(bytes("NEW.")) WHERE id = NEW.user_id;
            END
            """,
            """
            CREATE TRIGGER \(table)_used_update AFTER UPDATE OF \(columns) ON \(table) BEGIN
                UPDATE users SET used_bytes = used_bytes + \(bytes("NEW.")) - \(bytes("OLD.")) WHERE id = NEW.user_id;
            END
            """,
            """
            CREATE TRIGGER \(table)_used_delete AFTER DELETE ON \(table) BEGIN
                UPDATE users SET used_bytes = used_bytes - \(bytes("OLD.")) WHERE id = OLD.user_id;
            END
            """,
        ]
    }

    /// PostgreSQL's function and trigger that keep `users.used_bytes` as rows of `table` come, change and go.
    private static func postgresTotalTrigger(table: String, bytes: (String) -> String) -> [String] {
        [
            """
            CREATE FUNCTION \(table)_used_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    UPDATE users SET used_bytes = used_bytes + \(bytes("NEW.")) WHERE id = NEW.user_id;
                ELSIF TG_OP = 'UPDATE' THEN
                    IF \(bytes("NEW.")) <> \(bytes("OLD.")) THEN
                        UPDATE users SET used_bytes = used_bytes + \(bytes("NEW.")) - \(bytes("OLD."))
                        WHERE id = NEW.user_id;
                    END IF;
                ELSE
                    UPDATE users SET used_bytes = used_bytes - \(bytes("OLD.")) WHERE id = OLD.user_id;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER \(table)_used_bytes AFTER INSERT OR DELETE OR UPDATE
            ON \(table) FOR EACH ROW EXECUTE FUNCTION \(table)_used_bytes()
            """,
        ]
    }

    /// `users.used_bytes`, filled once from the sums it replaces, then kept by triggers. PostgreSQL's fire on every
    /// update (its `UPDATE OF` would miss `text_bytes`, which a BEFORE trigger sets) and write only a change. (It sums
    /// BIGINTs as NUMERIC: the casts bring the figures back to integers.)
    static let runningTotalMigration = Migration(
        version: 22, name: "each account's storage kept as a running total",
        statements: [
            "ALTER TABLE users ADD COLUMN used_bytes BIGINT NOT NULL DEFAULT 0",
            """
            UPDATE users SET used_bytes = CAST(
                COALESCE((SELECT SUM(\(entryBytes("")))  FROM entries WHERE entries.user_id = users.id), 0)
                + COALESCE((SELECT SUM(\(exportBytes(""))) FROM exports WHERE exports.user_id = users.id), 0)
                AS BIGINT)
            """,
        ],
        sqlite: sqliteTotalTriggers(table: "entries", columns: "size_bytes, text_bytes, deleted_at, purge_at", bytes: entryBytes)
            + sqliteTotalTriggers(table: "exports", columns: "blob_key, size_bytes", bytes: exportBytes),
        postgres: postgresTotalTrigger(table: "entries", bytes: entryBytes)
            + postgresTotalTrigger(table: "exports", bytes: exportBytes)
    )

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
