import Foundation
import MyDaySearch
import SQLKit

/// The full-text index of entries (title, tags, clean transcript), kept by triggers in the transaction of every write:
/// SQLite FTS5 (`unicode61 remove_diacritics 2`, contentless, keyed by the entry's rowid, with the owner as a
/// column of its own so a search reads one person's postings) or PostgreSQL's `tsvector` with `unaccent` (a GIN
/// index). Deleted entries are never in it. ADR 0025.
enum SearchIndex {
    static let migration = Migration(
        version: 8, name: "full-text search, local days, when entries were added",
        statements: [
            // The day an entry was recorded in its own time zone (yyyymmdd), for date filters; set at creation.
            "ALTER TABLE entries ADD COLUMN local_day BIGINT",
            // When the server first had the entry, so a search's later pages leave out entries that came after it.
            "ALTER TABLE entries ADD COLUMN added_at BIGINT",
            "UPDATE entries SET added_at = updated_at",
            "CREATE INDEX entries_user_day ON entries (user_id, local_day)",
        ],
        sqlite: [
            """
            CREATE VIRTUAL TABLE entries_search USING fts5(
                owner, title, tags, body, content = '', tokenize = 'unicode61 remove_diacritics 2')
            """,
            """
            CREATE TRIGGER entries_search_insert AFTER INSERT ON entries WHEN new.deleted_at IS NULL BEGIN
                INSERT INTO entries_search (rowid, owner, title, tags, body)
                VALUES (new.rowid, replace(new.user_id, '-', ''), new.title, new.tags, new.transcript_clean);
            END
            """,
            """
            CREATE TRIGGER entries_search_delete AFTER DELETE ON entries WHEN old.deleted_at IS NULL BEGIN
                INSERT INTO entries_search (entries_search, rowid, owner, title, tags, body)
                VALUES ('delete', old.rowid, replace(old.user_id, '-', ''), old.title, old.tags, old.transcript_clean);
            END
            """,
            """
            CREATE TRIGGER entries_search_update AFTER UPDATE OF user_id, title, tags, transcript_clean, deleted_at ON entries
            BEGIN
                INSERT INTO entries_search (entries_search, rowid, owner, title, tags, body)
                SELECT 'delete', old.rowid, replace(old.user_id, '-', ''), old.title, old.tags, old.transcript_clean
                WHERE old.deleted_at IS NULL;
                INSERT INTO entries_search (rowid, owner, title, tags, body)
                SELECT new.rowid, replace(new.user_id, '-', ''), new.title, new.tags, new.transcript_clean
                WHERE new.deleted_at IS NULL;
            END
            """,
            """
            INSERT INTO entries_search (rowid, owner, title, tags, body)
            SELECT rowid, replace(user_id, '-', ''), title, tags, transcript_clean FROM entries WHERE deleted_at IS NULL
            """,
        ],
        postgres: [
            // `unaccent` is a trusted extension: a database owner may create it.
            "CREATE EXTENSION IF NOT EXISTS unaccent",
            "CREATE TEXT SEARCH CONFIGURATION myday_search (COPY = simple)",
            """
            ALTER TEXT SEARCH CONFIGURATION myday_search
                ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part,
                    hword_numpart
                WITH unaccent, simple
            """,
            "ALTER TABLE entries ADD COLUMN search_vector tsvector",
            // Punctuation splits words as SQLite's tokenizer does (no host, email or version tokens).
            """
            CREATE FUNCTION entries_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.deleted_at IS NULL THEN
                    NEW.search_vector :=
                        setweight(to_tsvector('myday_search',
                            regexp_replace(coalesce(NEW.title, ''), '[[:punct:]]', ' ', 'g')), 'A')
                        || setweight(to_tsvector('myday_search',
                            regexp_replace(coalesce(NEW.tags, ''), '[[:punct:]]', ' ', 'g')), 'B')
                        || setweight(to_tsvector('myday_search',
                            regexp_replace(coalesce(NEW.transcript_clean, ''), '[[:punct:]]', ' ', 'g')), 'C');
                ELSE
                    NEW.search_vector := NULL;
                END IF;
                RETURN NEW;
            END
            $$
            """,
            """
            CREATE TRIGGER entries_search_vector BEFORE INSERT OR UPDATE OF title, tags, transcript_clean, deleted_at
            ON entries FOR EACH ROW EXECUTE FUNCTION entries_search_vector()
            """,
            // Fires the trigger for every entry there is.
            "UPDATE entries SET title = title WHERE deleted_at IS NULL",
            "CREATE INDEX entries_search ON entries USING GIN (search_vector)",
        ],
        backfill: { db in try await fillLocalDays(db) }
    )

    /// Two costs of searching long diaries on SQLite, removed (ADR 0025). Words are searched as prefixes ("mark" finds
    /// "market"), and without a prefix index FTS5 merges the postings of every word a prefix begins, with their
    /// positions, in each query: a millisecond for a word 10,000 entries hold. So prefixes of 2 to 12 characters are
    /// indexed beside the words (the index grows about fivefold) and the index is made again from the entries. And
    /// titles and tags get an index of their own, `entries_labels`, holding only entries that have either: matching
    /// them among thousands of matches (which come first) no longer walks every posting of the word.
    static let prefixMigration = Migration(
        version: 9, name: "full-text search: prefixes indexed, titles and tags apart",
        statements: [],
        sqlite: [
            "DROP TABLE entries_search",
            """
            CREATE VIRTUAL TABLE entries_search USING fts5(
                owner, title, tags, body, content = '', tokenize = 'unicode61 remove_diacritics 2',
                prefix = '2 3 4 5 6 7 8 9 10 11 12')
            """,
            """
            INSERT INTO entries_search (rowid, owner, title, tags, body)
            SELECT rowid, replace(user_id, '-', ''), title, tags, transcript_clean FROM entries WHERE deleted_at IS NULL
            """,
            """
            CREATE VIRTUAL TABLE entries_labels USING fts5(
                owner, title, tags, content = '', tokenize = 'unicode61 remove_diacritics 2',
                prefix = '2 3 4 5 6 7 8 9 10 11 12')
            """,
            """
            CREATE TRIGGER entries_labels_insert AFTER INSERT ON entries
            WHEN new.deleted_at IS NULL AND (new.title IS NOT NULL OR new.tags <> '[]') BEGIN
                INSERT INTO entries_labels (rowid, owner, title, tags)
                VALUES (new.rowid, replace(new.user_id, '-', ''), new.title, new.tags);
            END
            """,
            """
            CREATE TRIGGER entries_labels_delete AFTER DELETE ON entries
            WHEN old.deleted_at IS NULL AND (old.title IS NOT NULL OR old.tags <> '[]') BEGIN
                INSERT INTO entries_labels (entries_labels, rowid, owner, title, tags)
                VALUES ('delete', old.rowid, replace(old.user_id, '-', ''), old.title, old.tags);
            END
            """,
            """
            CREATE TRIGGER entries_labels_update AFTER UPDATE OF user_id, title, tags, deleted_at ON entries BEGIN
                INSERT INTO entries_labels (entries_labels, rowid, owner, title, tags)
                SELECT 'delete', old.rowid, replace(old.user_id, '-', ''), old.title, old.tags
                WHERE old.deleted_at IS NULL AND (old.title IS NOT NULL OR old.tags <> '[]');
                INSERT INTO entries_labels (rowid, owner, title, tags)
                SELECT new.rowid, replace(new.user_id, '-', ''), new.title, new.tags
                WHERE new.deleted_at IS NULL AND (new.title IS NOT NULL OR new.tags <> '[]');
            END
            """,
            """
            INSERT INTO entries_labels (rowid, owner, title, tags)
            SELECT rowid, replace(user_id, '-', ''), title, tags FROM entries
            WHERE deleted_at IS NULL AND (title IS NOT NULL OR tags <> '[]')
            """,
        ]
    )

    /// PostgreSQL's searches of a long diary, made cheap where SQLite's already were (ADR 0042). Titles and tags get a
    /// vector and a GIN index of their own, `labels_vector` (the first two parts of `search_vector`, built the same
    /// way, so a match in it is a match of the query weighted `AB`): the matches in titles and tags, which come first,
    /// are found without rechecking every entry holding the word. And a person's live entries, newest first, are an
    /// index (`entries_user_newest`) the planner walks for a word most entries hold, stopping at the page's end.
    static let postgresMigration = Migration(
        version: 20, name: "PostgreSQL search: titles and tags apart, a person's newest entries indexed",
        statements: [],
        postgres: [
            "ALTER TABLE entries ADD COLUMN labels_vector tsvector",
            """
            CREATE OR REPLACE FUNCTION entries_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                labels tsvector;
            BEGIN
                IF NEW.deleted_at IS NULL THEN
                    labels :=
                        setweight(to_tsvector('myday_search',
                            regexp_replace(coalesce(NEW.title, ''), '[[:punct:]]', ' ', 'g')), 'A')
                        || setweight(to_tsvector('myday_search',
                            regexp_replace(coalesce(NEW.tags, ''), '[[:punct:]]', ' ', 'g')), 'B');
                    NEW.search_vector := labels
                        || setweight(to_tsvector('myday_search',
                            regexp_replace(coalesce(NEW.transcript_clean, ''), '[[:punct:]]', ' ', 'g')), 'C');
                    NEW.labels_vector := nullif(labels, ''::tsvector);
                ELSE
                    NEW.search_vector := NULL;
                    NEW.labels_vector := NULL;
                END IF;
                RETURN NEW;
            END
            $$
            """,
            // Fires the trigger for every entry with a title or tags.
            "UPDATE entries SET title = title WHERE deleted_at IS NULL AND (title IS NOT NULL OR tags <> '[]')",
            "CREATE INDEX entries_labels ON entries USING GIN (labels_vector)",
            "CREATE INDEX entries_user_newest ON entries (user_id, created_at DESC, id DESC) WHERE deleted_at IS NULL",
            "ANALYZE entries",
        ]
    )

    /// Sets `local_day` of every entry that lacks it, from its start and its own time zone.
    static func fillLocalDays(_ db: any SQLDatabase) async throws {
        let rows = try await db.raw("SELECT id, created_at, tz FROM entries WHERE local_day IS NULL").all()
        for row in rows {
            let created = StoredTime.date(milliseconds: try row.decode(column: "created_at", as: Int.self))
            let zone = TimeZone(identifier: try row.decode(column: "tz", as: String.self)) ?? .gmt
            try await db.raw(
                """
                UPDATE entries SET local_day = \(bind: LocalDay(created, in: zone).number)
                WHERE id = \(bind: try row.decode(column: "id", as: String.self))
                """
            ).run()
        }
    }
}
