import Foundation
import MyDaySearch
import SQLKit

/// Where a word of a person's vocabulary came from.
enum VocabularySource: String, Sendable, CaseIterable {
    /// The person's own list.
    case you
    case title
    case tag
    /// A word the person typed in place of one the recognizer heard.
    case correction
}

/// A word of a person's vocabulary.
struct VocabularyWord: Sendable, Equatable {
    let text: String
    let source: VocabularySource
}

/// The words the recognizer is taught for each person: their own list and what was learned from their titles, tags and
/// corrections. A word the person removes stays as a tombstone, so that it is not learned again.
struct VocabularyStore: Sendable {
    let driver: any DatabaseDriver
    /// At most this many words a person keeps; learning stops when the list is full.
    static let capacity = 500
    /// The longest word, in characters.
    static let longestWord = 50
    /// At most this many removed words are remembered (so as not to be learned again), the latest removed kept: lists
    /// sent one after another must not grow a person's rows without end.
    static let removedRemembered = 2_000

    static let migration = Migration(
        version: 12, name: "a personal vocabulary for the recognizer",
        statements: [
            """
            CREATE TABLE vocabulary (
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                folded TEXT NOT NULL,
                text TEXT NOT NULL,
                source TEXT NOT NULL,
                removed BIGINT NOT NULL DEFAULT 0,
                added_at BIGINT NOT NULL,
                learned_from TEXT,
                PRIMARY KEY (user_id, folded)
            )
            """,
            "CREATE INDEX vocabulary_learned_from ON vocabulary (user_id, learned_from)",
        ]
    )

    /// The person's words, oldest first.
    func words(userID: UUID) async throws -> [VocabularyWord] {
        try await driver.read { db in try await Self.words(userID: userID, in: db) }
    }

    /// Makes `words` the person's whole vocabulary: words kept keep their source, new ones are the person's own, and
    /// learned words left out are removed for good. The caller has checked the words (`VocabularyStore.checked`).
    func replace(userID: UUID, with words: [String]) async throws -> [VocabularyWord] {
        let lock: SQLQueryString = driver.engine == .postgres ? " FOR UPDATE" : ""
        return try await driver.write { db in
            let user = userID.lowercased
            // One change of a person's list at a time (SQLite writes one transaction at a time anyway): two lists sent at
            // once must not end as a mix of both, nor an edit's learning pass the capacity beside it.
            try await db.raw("SELECT id FROM users WHERE id = \(bind: user)" + lock).run()
            let now = try await Self.nextPosition(userID: userID, in: db)
            let keys = words.map(Self.key)
            // Left out: removed, and remembered so that it is not learned again.
            let kept: SQLQueryString = keys.isEmpty ? "" : " AND folded NOT IN (\(binds: keys))"
            try await db.raw(
                "UPDATE vocabulary SET removed = 1, added_at = \(bind: now) WHERE user_id = \(bind: user) AND removed = 0" + kept
            ).run()
            try await db.raw(
                """
                DELETE FROM vocabulary WHERE user_id = \(bind: user) AND removed = 1 AND folded NOT IN (
                    SELECT folded FROM vocabulary WHERE user_id = \(bind: user) AND removed = 1
                    ORDER BY added_at DESC, folded LIMIT \(literal: Self.removedRemembered))
                """
            ).run()
            guard !words.isEmpty else { return [] }
            // Removed before and wanted again: the person's own word now.
            try await db.raw(
                """
                UPDATE vocabulary SET removed = 0, source = 'you', learned_from = NULL, added_at = \(bind: now)
                WHERE user_id = \(bind: user) AND removed = 1 AND folded IN (\(binds: keys))
                """
            ).run()
            // New words, in the order given; a kept word keeps its source and takes the spelling given.
            var rows: [SQLQueryString] = []
            for (offset, text) in words.enumerated() {
                rows.append("(\(bind: user), \(bind: keys[offset]), \(bind: text), 'you', \(bind: now + offset))")
            }
            try await db.raw(
                "INSERT INTO vocabulary (user_id, folded, text, source, added_at) VALUES "
                    + rows.joined(separator: ", ")
                    + " ON CONFLICT (user_id, folded) DO UPDATE SET text = excluded.text"
            ).run()
            return try await Self.words(userID: userID, in: db)
        }
    }

    /// Adds words the person's own writing in one entry taught, inside the caller's transaction: never one they
    /// removed, never past the capacity, never twice (a word another entry taught first stays that entry's). Every
    /// word is noted as the entry's, in the list or not: it stays while one of its entries teaches it (`release`).
    static func learn(
        _ words: [String], from source: VocabularySource, entryID: UUID, userID: UUID, in db: any SQLDatabase
    ) async throws {
        var seen = Set<String>()
        // Only what a `PUT` of the list would take back: a word learned here must never make the list refused.
        let taught = words.filter { isWordOnOneLine($0) && seen.insert(key($0)).inserted }.prefix(capacity)
        guard !taught.isEmpty else { return }
        let user = userID.lowercased
        try await note(Array(taught), taughtBy: entryID, from: source, userID: userID, in: db)
        let count =
            try await db.raw("SELECT COUNT(*) AS count FROM vocabulary WHERE user_id = \(bind: user) AND removed = 0")
            .first()?.decode(column: "count", as: Int.self) ?? 0
        let fresh = taught.prefix(max(0, capacity - count))
        guard !fresh.isEmpty else { return }
        let now = try await nextPosition(userID: userID, in: db)
        var rows: [SQLQueryString] = []
        for (offset, text) in fresh.enumerated() {
            rows.append(
                """
                (\(bind: user), \(bind: key(text)), \(bind: text), \(bind: source.rawValue), \(bind: now + offset), \
                \(bind: entryID.lowercased))
                """)
        }
        try await db.raw(
            "INSERT INTO vocabulary (user_id, folded, text, source, added_at, learned_from) VALUES "
                + rows.joined(separator: ", ") + " ON CONFLICT (user_id, folded) DO NOTHING"
        ).run()
    }

    /// Forgets what a deleted entry taught, inside the deletion's transaction: a word another entry of the person
    /// teaches too stays (kept or removed, as it was), as that entry's; the rest goes. A word the person added
    /// themselves is theirs, and stays.
    static func forget(learnedFrom entryID: UUID, userID: UUID, in db: any SQLDatabase) async throws {
        try await release(taughtBy: entryID, userID: userID, source: nil, keeping: [], erasing: true, in: db)
    }

    /// Makes `words` what an entry's `source` (its transcript's corrections, its title or its tags) teaches now, inside
    /// the edit's transaction: what it taught before and no longer does goes (a word saved in the middle of typing,
    /// "Sio" on the way to "Siobhan", or a correction taken back), unless another teacher teaches it too; one the
    /// person removed stays removed.
    static func relearn(
        _ words: [String], from source: VocabularySource, entryID: UUID, userID: UUID, in db: any SQLDatabase
    ) async throws {
        try await release(
            taughtBy: entryID, userID: userID, source: source, keeping: Set(words.map(key)), erasing: false, in: db)
        try await learn(words, from: source, entryID: entryID, userID: userID, in: db)
    }

    /// Takes away what `entryID` teaches (from `source` alone, when given) but the words in `keeping`. A word it was
    /// learned from that another teacher still teaches is handed to that teacher, with its spelling, kept or removed
    /// as it was; otherwise it goes, but a removed word stays remembered until its entry is erased.
    private static func release(
        taughtBy entryID: UUID, userID: UUID, source: VocabularySource?, keeping: Set<String>, erasing: Bool,
        in db: any SQLDatabase
    ) async throws {
        let (user, entry) = (userID.lowercased, entryID.lowercased)
        let which: SQLQueryString = source.map { " AND source = \(bind: $0.rawValue)" } ?? ""
        let taught = try await db.raw(
            "SELECT folded FROM vocabulary_teachers WHERE user_id = \(bind: user) AND entry_id = \(bind: entry)" + which
        ).all().map { try $0.decode(column: "folded", as: String.self) }.filter { !keeping.contains($0) }
        for folded in taught {
            try await db.raw(
                """
                DELETE FROM vocabulary_teachers WHERE user_id = \(bind: user) AND entry_id = \(bind: entry)
                    AND folded = \(bind: folded)
                """ + which
            ).run()
        }
        let learned = try await db.raw(
            "SELECT folded, removed FROM vocabulary WHERE user_id = \(bind: user) AND learned_from = \(bind: entry)" + which
        ).all()
        for row in learned {
            let folded = try row.decode(column: "folded", as: String.self)
            guard !keeping.contains(folded) else { continue }
            let removed = try row.decode(column: "removed", as: Int.self) == 1
            let other = try await db.raw(
                """
                SELECT entry_id, source, text FROM vocabulary_teachers WHERE user_id = \(bind: user)
                    AND folded = \(bind: folded) ORDER BY entry_id, source LIMIT 1
                """
            ).first()
            if let other {
                try await db.raw(
                    """
                    UPDATE vocabulary SET learned_from = \(bind: try other.decode(column: "entry_id", as: String.self)),
                        source = \(bind: try other.decode(column: "source", as: String.self)),
                        text = \(bind: try other.decode(column: "text", as: String.self))
                    WHERE user_id = \(bind: user) AND folded = \(bind: folded)
                    """
                ).run()
            } else if erasing || !removed {
                try await db.raw("DELETE FROM vocabulary WHERE user_id = \(bind: user) AND folded = \(bind: folded)").run()
            }
        }
    }

    /// Who teaches each learned word: every entry that taught it, not only the first (the row's `learned_from`).
    static let teachersMigration = Migration(
        version: 24, name: "every entry that teaches a vocabulary word",
        statements: [
            """
            CREATE TABLE vocabulary_teachers (
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                folded TEXT NOT NULL,
                entry_id TEXT NOT NULL,
                source TEXT NOT NULL,
                text TEXT NOT NULL,
                PRIMARY KEY (user_id, folded, entry_id, source)
            )
            """,
            "CREATE INDEX vocabulary_teachers_entry ON vocabulary_teachers (user_id, entry_id)",
        ],
        backfill: { db in
            // What every kept entry teaches now: its corrections, the names in its title, its tags.
            let entries = try await db.raw(
                "SELECT \(unsafeRaw: EntryRecord.columns) FROM entries WHERE transcript_clean IS NOT NULL OR title IS NOT NULL OR tags <> '[]'"
            ).all().map(EntryRecord.init(row:))
            for entry in entries {
                for (source, words) in VocabularyLearning.taught(by: entry) {
                    var seen = Set<String>()
                    let taught = words.filter { isWordOnOneLine($0) && seen.insert(key($0)).inserted }
                    try await note(taught, taughtBy: entry.id, from: source, userID: entry.userID, in: db)
                }
            }
        })

    /// Notes `entryID` as a teacher of each of `words` (checked and once each), with its spelling.
    private static func note(
        _ words: [String], taughtBy entryID: UUID, from source: VocabularySource, userID: UUID, in db: any SQLDatabase
    ) async throws {
        guard !words.isEmpty else { return }
        let rows: [SQLQueryString] = words.map {
            "(\(bind: userID.lowercased), \(bind: key($0)), \(bind: entryID.lowercased), \(bind: source.rawValue), \(bind: $0))"
        }
        try await db.raw(
            "INSERT INTO vocabulary_teachers (user_id, folded, entry_id, source, text) VALUES " + rows.joined(separator: ", ")
                + " ON CONFLICT (user_id, folded, entry_id, source) DO UPDATE SET text = excluded.text"
        ).run()
    }

    /// Where the next word goes in the list: after every word there (added within the same millisecond or not).
    private static func nextPosition(userID: UUID, in db: any SQLDatabase) async throws -> Int {
        let row = try await db.raw(
            "SELECT MAX(added_at) AS last FROM vocabulary WHERE user_id = \(bind: userID.lowercased)"
        ).first()
        let last = try row?.decodeNil(column: "last") == false ? try row!.decode(column: "last", as: Int.self) : 0
        return max(StoredTime.now(), last + 1)
    }

    /// The words of a `PUT`, checked: printable, one line, 1 to 50 characters, at most 500 (repeats counted once).
    static func checked(_ words: [String]) throws(APIError) -> [String] {
        guard words.count <= capacity else {
            throw APIError.unprocessable("A vocabulary holds at most \(capacity) words; \(words.count) were sent.")
        }
        var seen = Set<String>()
        var kept: [String] = []
        for (index, raw) in words.enumerated() {
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, text.count <= longestWord else {
                throw APIError.unprocessable("'words[\(index)]' must be 1 to \(longestWord) characters.")
            }
            guard isWordOnOneLine(text) else {
                throw APIError.unprocessable("'words[\(index)]' must be a word or a name, on one line.")
            }
            if seen.insert(key(text)).inserted { kept.append(text) }
        }
        guard kept.count <= capacity else {
            throw APIError.unprocessable("A vocabulary holds at most \(capacity) words; this one has \(kept.count).")
        }
        return kept
    }

    /// A letter or digit, and no control character, tab or line break; the joiners some scripts and emoji need
    /// (U+200C, U+200D) are welcome.
    static func isWordOnOneLine(_ text: String) -> Bool {
        text.contains(where: { $0.isLetter || $0.isNumber })
            && !text.unicodeScalars.contains {
                [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
            }
    }

    /// One word however it is written (`SearchText.nameKey`).
    static func key(_ text: String) -> String { SearchText.nameKey(text) }

    /// The keys of words kept before a mark of another script made another name (version 23): made again.
    static let keyMigration = Migration(
        version: 23, name: "vocabulary keys that keep the marks of scripts other than Latin, Greek and Cyrillic",
        statements: [],
        backfill: { db in
            let rows = try await db.raw("SELECT user_id, folded, text FROM vocabulary").all()
            for row in rows {
                let (user, folded) = (
                    try row.decode(column: "user_id", as: String.self), try row.decode(column: "folded", as: String.self)
                )
                let fresh = key(try row.decode(column: "text", as: String.self))
                // Compared as stored: a key kept decomposed (Hangul) equals its composed form as a Swift string.
                guard !fresh.utf8.elementsEqual(folded.utf8) else { continue }
                try await db.raw(
                    "UPDATE vocabulary SET folded = \(bind: fresh) WHERE user_id = \(bind: user) AND folded = \(bind: folded)"
                ).run()
            }
        })

    private static func words(userID: UUID, in db: any SQLDatabase) async throws -> [VocabularyWord] {
        try await db.raw(
            """
            SELECT text, source FROM vocabulary WHERE user_id = \(bind: userID.lowercased) AND removed = 0
            ORDER BY added_at, folded
            """
        ).all().map { row in
            VocabularyWord(
                text: try row.decode(column: "text", as: String.self),
                source: VocabularySource(rawValue: try row.decode(column: "source", as: String.self)) ?? .you)
        }
    }
}
