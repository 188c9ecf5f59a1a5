import Foundation
import MyDayModels
import SQLKit
import SQLiteKit

/// A diary entry as the server keeps it; a deleted one is a tombstone with its content erased.
struct EntryRecord: Sendable, Equatable {
    var id: UUID
    var userID: UUID
    var createdAt: Date
    var timeZone: String
    var durationSeconds: Double
    var kind: EntryKind
    var status: EntryStatus
    var failureReason: String?
    var filename: String
    var contentType: String?
    var audioKey: String?
    var sizeBytes: Int?
    var language: String?
    var title: String?
    var tags: [String]
    var mood: Int?
    var transcriptRaw: String?
    var transcriptClean: String?
    var noSpeech: Bool
    var changeSeq: Int
    var updatedAt: Date
    var deletedAt: Date?
    /// Why the transcript may be wrong (long speech but few words, a loop, one stock phrase); nil when it looks sound.
    var reviewReason: String?
    /// The person changed the words of a recording's transcript: they are no longer the automatic ones.
    var wordsEdited = false
    /// How much of a long recording the engine has heard (0–99) while it is transcribed; nil otherwise.
    var transcriptionPercent: Int?

    /// `words_edited`; entries edited before it count as automatic.
    static let wordsEditedMigration = Migration(
        version: 16, name: "words the person edited",
        statements: ["ALTER TABLE entries ADD COLUMN words_edited BIGINT NOT NULL DEFAULT 0"])

    static let columns = """
        id, user_id, created_at, tz, duration_s, kind, status, failure_reason, filename, content_type, audio_key, \
        size_bytes, language, title, tags, mood, transcript_raw, transcript_clean, no_speech, change_seq, updated_at, \
        deleted_at, review_reason, words_edited, transcription_percent
        """

    /// `transcription_percent`, written while a long recording is transcribed.
    static let transcriptionPercentMigration = Migration(
        version: 18, name: "how far a transcription is",
        statements: ["ALTER TABLE entries ADD COLUMN transcription_percent BIGINT"])

    /// Reads a row that selects `columns` first, through SQLKit; by position, as every entry row is read.
    init(row: any SQLRow) throws { try self.init(positional: SQLKitRow(row)) }
}

/// What a client asks for when it creates an entry, already validated.
struct NewEntry: Sendable {
    var id: UUID
    var createdAt: Date
    var timeZone: TimeZone
    var durationSeconds: Double
    var kind: EntryKind
    var text: String?
    var sizeBytes: Int?
    var container: AudioContainer?
    var language: String?
    /// The SHA-256 of the file (or journal entry) an imported entry came from, in lowercase hex.
    var sourceSHA256: String?
}

extension EntryRecord {
    /// Reads a row selecting `columns`, by position.
    init(positional row: some PositionalRow) throws {
        guard row.columnCount >= 25 else { throw PositionalRowError("an entry row has \(row.columnCount) columns") }
        func raw<Value: RawRepresentable<String>>(_ index: Int) throws -> Value {
            guard let value = Value(rawValue: try row.text(index)) else {
                throw PositionalRowError("column \(index) is unknown")
            }
            return value
        }
        guard let id = UUID(text: try row.text(0)), let userID = UUID(text: try row.text(1)) else {
            throw PositionalRowError("an entry row holds no UUID")
        }
        self.id = id
        self.userID = userID
        createdAt = StoredTime.date(milliseconds: try row.integer(2))
        timeZone = try row.text(3)
        durationSeconds = try row.double(4)
        kind = try raw(5)
        status = try raw(6)
        failureReason = try row.optionalText(7)
        filename = try row.text(8)
        contentType = try row.optionalText(9)
        audioKey = try row.optionalText(10)
        sizeBytes = try row.optionalInteger(11)
        language = try row.optionalText(12)
        title = try row.optionalText(13)
        let tagsJSON = try row.text(14)
        tags = tagsJSON == "[]" ? [] : try JSONDecoder().decode([String].self, from: Data(tagsJSON.utf8))
        mood = try row.optionalInteger(15)
        transcriptRaw = try row.optionalText(16)
        transcriptClean = try row.optionalText(17)
        noSpeech = try row.integer(18) != 0
        changeSeq = try row.integer(19)
        updatedAt = StoredTime.date(milliseconds: try row.integer(20))
        deletedAt = try row.optionalInteger(21).map(StoredTime.date(milliseconds:))
        reviewReason = try row.optionalText(22)
        wordsEdited = try row.integer(23) != 0
        transcriptionPercent = try row.optionalInteger(24)
    }
}
