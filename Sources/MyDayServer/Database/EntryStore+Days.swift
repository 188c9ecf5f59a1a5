import Foundation
import MyDaySearch
import MyDaySpeech
import SQLKit

/// Reads of entries by the day they were made on, in their own time zone (`local_day`, as the Library groups them).
extension EntryStore {
    /// The user's live entries of one day (by the day each was made on in its own time zone, as the Library groups
    /// them), in the order they were made, each with the words its recognizer heard.
    func day(_ day: LocalDay, userID: UUID) async throws -> [(entry: EntryRecord, words: [RecognizedWord])] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: EntryRecord.columns), words FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND local_day = \(bind: day.number) AND deleted_at IS NULL
                ORDER BY created_at, id
                """
            ).all().map { row in
                let words = try row.decodeOptional(column: "words", as: String.self)
                return (try EntryRecord(row: row), try words.map { try RecognizedWord.list(fromJSON: $0) } ?? [])
            }
        }
    }

    /// The user's live entries of these days, in the order they were made.
    func entries(onDays days: [LocalDay], userID: UUID) async throws -> [(day: LocalDay, entry: EntryRecord)] {
        guard !days.isEmpty else { return [] }
        return try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: EntryRecord.columns), local_day FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND local_day IN (\(binds: days.map(\.number)))
                    AND deleted_at IS NULL
                ORDER BY created_at, id
                """
            ).all().map { row in
                (LocalDay(number: try row.decode(column: "local_day", as: Int.self)), try EntryRecord(row: row))
            }
        }
    }

    /// Every day with a live entry of the user's.
    func daysWithEntries(userID: UUID) async throws -> Set<LocalDay> {
        try await driver.read { db in
            Set(
                try await db.raw(
                    """
                    SELECT DISTINCT local_day FROM entries WHERE user_id = \(bind: userID.lowercased) AND deleted_at IS NULL
                    """
                ).all().map { LocalDay(number: try $0.decode(column: "local_day", as: Int.self)) })
        }
    }

    /// What insights need of the user's live entries of `range`.
    func insightEntries(in range: LocalDayRange, userID: UUID) async throws -> [DiaryInsights.Entry] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT local_day, duration_s, kind, transcript_clean, mood, tags FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND local_day BETWEEN \(bind: range.from.number)
                    AND \(bind: range.to.number) AND deleted_at IS NULL
                """
            ).all().map { row in
                DiaryInsights.Entry(
                    day: LocalDay(number: try row.decode(column: "local_day", as: Int.self)),
                    seconds: try row.decode(column: "kind", as: String.self) == "audio"
                        ? try row.decode(column: "duration_s", as: Double.self) : 0,
                    text: try row.decodeOptional(column: "transcript_clean", as: String.self),
                    mood: try row.decodeOptional(column: "mood", as: Int.self),
                    tags: try JSONDecoder().decode(
                        [String].self, from: Data(try row.decode(column: "tags", as: String.self).utf8)))
            }
        }
    }
}
