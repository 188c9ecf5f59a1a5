import Foundation
import MyDayModels
import MyDaySearch
import MyDaySpeech
import SQLKit

/// Diary entries: creation, the upload's completion, edits, tombstones and the change feed for sync (Recently deleted:
/// `EntryStore+RecentlyDeleted.swift`).
///
/// Every change takes the next number of its user's change sequence in the same transaction. The
/// counter lives on the user's row, so a user's changes commit in sequence order and a sync cursor
/// never skips a change that commits late.
struct EntryStore: Sendable {
    let driver: any DatabaseDriver
    /// Up to this many matches of a search are ranked one by one. Beyond, ranking every match costs tens of
    /// milliseconds (bm25 over 10,000 entries: 45 ms), so matches in titles and tags come first, ranked, then the rest
    /// newest first.
    var rankedMatches = EntryStore.productionRankedMatches

    static let productionRankedMatches = 300

    /// A transaction that writes entries, for writes of this store and the workflows that add their own to the same
    /// commit. On SQLite it is counted, for the upkeep of the search index (`SearchIndexCompaction`).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws
        -> T
    {
        let result = try await driver.write(body)
        (driver as? SQLiteDriver)?.noteIndexWrite()
        return result
    }

    enum CreateError: Error, Equatable {
        case idBelongsToAnotherUser
        case deleted
    }

    /// Creates the entry, or answers the one this user already created with this id, or imported from the same source
    /// (`created` false). Throws
    /// `QuotaExceeded`, changing nothing, when the new audio would take the user's storage past `quotaBytes`.
    /// Records a new entry, or answers the one with this id (a client's retry). An audio entry's upload must arrive
    /// before `uploadExpiresAt`; each retry moves that on (it gets a fresh upload URL), and a retry of an entry the
    /// abandoned-upload sweep removed brings it back, so a phone that was offline for days loses nothing.
    func create(_ new: NewEntry, userID: UUID, quotaBytes: Int = .max, uploadExpiresAt: Date = .distantFuture) async throws
        -> (entry: EntryRecord, created: Bool)
    {
        let now = StoredTime.now()
        let uploadDeadline = new.kind == .text ? nil : StoredTime.milliseconds(uploadExpiresAt)
        let isText = new.kind == .text
        let container = new.container ?? .mp4
        let filename = RecordingFilename.make(
            id: new.id, start: new.createdAt, timeZone: new.timeZone, fileExtension: isText ? "txt" : container.fileExtension)
        return try await transaction { db in
            let seq = try await Self.nextChange(db, userID: userID)
            if let sha256 = new.sourceSHA256,
                let twin = try await Self.importedTwin(of: new.id, sha256: sha256, userID: userID, in: db)
            {
                return (twin, false)
            }
            let status = isText ? EntryStatus.transcribed : .pendingUpload
            let inserted = try await db.raw(
                """
                INSERT INTO entries (id, user_id, created_at, tz, duration_s, kind, status, filename, content_type, audio_key,
                    size_bytes, language, transcript_clean, change_seq, updated_at, upload_expires_at, local_day, added_at,
                    source_sha256)
                VALUES (\(bind: new.id.lowercased), \(bind: userID.lowercased), \(bind: StoredTime.milliseconds(new.createdAt)),
                    \(bind: new.timeZone.identifier), \(bind: new.durationSeconds), \(bind: new.kind.rawValue), \(bind: status.rawValue),
                    \(bind: filename), \(bind: isText ? nil : container.rawValue), \(bind: isText ? nil : BlobKey.audio(userID: userID, entryID: new.id)),
                    \(bind: new.sizeBytes), \(bind: new.language), \(bind: isText ? new.text : nil), \(bind: seq), \(bind: now),
                    \(bind: uploadDeadline), \(bind: LocalDay(new.createdAt, in: new.timeZone).number), \(bind: now),
                    \(bind: new.sourceSHA256))
                ON CONFLICT (id) DO NOTHING
                RETURNING \(unsafeRaw: EntryRecord.columns)
                """
            ).first()
            if let inserted {
                let adding = (new.sizeBytes ?? 0) + (isText ? new.text?.utf8.count ?? 0 : 0)
                try await Self.checkQuota(userID: userID, adding: adding, quotaBytes: quotaBytes, in: db)
                return (try EntryRecord(row: inserted), true)
            }
            guard
                let existing = try await db.raw(
                    """
                    SELECT \(unsafeRaw: EntryRecord.columns), upload_expires_at FROM entries WHERE id = \(bind: new.id.lowercased)
                    """
                ).first()
            else { throw CreateError.idBelongsToAnotherUser }
            let entry = try EntryRecord(row: existing)
            guard entry.userID == userID else { throw CreateError.idBelongsToAnotherUser }
            let swept = try existing.decodeOptional(column: "upload_expires_at", as: Int.self) != nil
            if entry.deletedAt != nil {
                // A deletion clears the upload deadline; only the sweep's tombstones keep it.
                guard swept, entry.status == .pendingUpload else { throw CreateError.deleted }
                let key = BlobKey.audio(userID: userID, entryID: entry.id)
                try await db.raw(
                    """
                    UPDATE entries SET deleted_at = NULL, audio_key = \(bind: key), language = \(bind: new.language),
                        change_seq = \(bind: seq), updated_at = \(bind: now), upload_expires_at = \(bind: uploadDeadline)
                    WHERE id = \(bind: new.id.lowercased)
                    """
                ).run()
                try await Self.checkQuota(userID: userID, adding: entry.sizeBytes ?? 0, quotaBytes: quotaBytes, in: db)
                return (try await Self.liveEntry(db, id: new.id, userID: userID)!, false)
            }
            if entry.status == .pendingUpload {
                try await db.raw(
                    "UPDATE entries SET upload_expires_at = \(bind: uploadDeadline) WHERE id = \(bind: new.id.lowercased)"
                ).run()
            }
            return (entry, false)
        }
    }

    /// Counted after the insert, under the user's row lock `nextChange` took: parallel creates cannot both fit.
    private static func checkQuota(userID: UUID, adding size: Int, quotaBytes: Int, in db: any SQLDatabase) async throws {
        let used = try await StorageUsage.bytes(userID: userID, in: db)
        if used > quotaBytes {
            throw QuotaExceeded(usedBytes: used - size, quotaBytes: quotaBytes, neededBytes: size)
        }
    }

    /// The user's live entry with this id; another user's entry is as absent as a missing one.
    func entry(id: UUID, userID: UUID) async throws -> EntryRecord? {
        try await driver.read { db in
            try await Self.liveEntry(db, id: id, userID: userID)
        }
    }

    /// The words the recognizer heard in the user's live entry, with their times (empty before a transcript and for
    /// typed entries); nil when the user has no such entry.
    func heardWords(id: UUID, userID: UUID) async throws -> (entry: EntryRecord, words: [RecognizedWord])? {
        try await driver.read { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT \(unsafeRaw: EntryRecord.columns), words FROM entries
                    WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased) AND deleted_at IS NULL
                    """
                ).first()
            else { return nil }
            let words = try row.decodeOptional(column: "words", as: String.self)
            return (try EntryRecord(row: row), try words.map { try RecognizedWord.list(fromJSON: $0) } ?? [])
        }
    }

    /// The tags the user's live entries carry, most used first.
    func tagsInUse(userID: UUID) async throws -> [String] {
        let lists = try await driver.read { db in
            try await db.raw(
                """
                SELECT tags FROM entries WHERE user_id = \(bind: userID.lowercased) AND deleted_at IS NULL AND tags <> '[]'
                """
            ).all().map { try $0.decode(column: "tags", as: String.self) }
        }
        return tagsByUse(try lists.flatMap { try JSONDecoder().decode([String].self, from: Data($0.utf8)) })
    }

    /// The live entry whose audio belongs under `audioKey`, whoever owns it (for signed URLs, which carry no user).
    func entry(audioKey: String) async throws -> EntryRecord? {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: EntryRecord.columns) FROM entries WHERE audio_key = \(bind: audioKey) AND deleted_at IS NULL
                    AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
                """
            ).first().map(EntryRecord.init(row:))
        }
    }

    /// The bytes the user's storage quota counts now.
    func storageUsed(userID: UUID) async throws -> Int {
        try await driver.read { db in try await StorageUsage.bytes(userID: userID, in: db) }
    }

    /// What the Profile's figures need of every live entry of the user.
    func statsEntries(userID: UUID) async throws -> [DiaryStats.Entry] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT local_day, duration_s, transcript_clean FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND deleted_at IS NULL
                """
            ).all().map { row in
                DiaryStats.Entry(
                    day: LocalDay(number: try row.decode(column: "local_day", as: Int.self)),
                    durationSeconds: try row.decode(column: "duration_s", as: Double.self),
                    words: DiaryStats.wordCount(try row.decodeOptional(column: "transcript_clean", as: String.self)))
            }
        }
    }

    /// Changes after `cursor`, oldest first, at most `limit`, and whether more follow.
    func changes(userID: UUID, after cursor: Int, limit: Int) async throws -> (entries: [EntryRecord], hasMore: Bool) {
        let entries = try await driver.readEntries(
            """
            SELECT \(unsafeRaw: EntryRecord.columns) FROM entries
            WHERE user_id = \(bind: userID.lowercased) AND change_seq > \(bind: cursor)
            ORDER BY change_seq LIMIT \(literal: limit + 1)
            """
        )
        return (Array(entries.prefix(limit)), entries.count > limit)
    }

    /// Takes the right to check this entry's upload until `until` (ms); false while another request holds it, or when
    /// the entry no longer waits for its upload. So `complete` runs at most once at a time per entry, on any node.
    func claimCompletion(id: UUID, userID: UUID, until: Int, now: Int = StoredTime.now()) async throws -> Bool {
        try await transaction { db in
            try await db.raw(
                """
                UPDATE entries SET completing_until = \(bind: until)
                WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased) AND deleted_at IS NULL
                    AND status = \(bind: EntryStatus.pendingUpload.rawValue)
                    AND (completing_until IS NULL OR completing_until < \(bind: now))
                RETURNING id
                """
            ).first() != nil
        }
    }

    /// Extends a completion claim this request still holds (its `completing_until` is still `held`) to `until`; false
    /// when it holds it no more.
    func renewCompletion(id: UUID, held: Int, until: Int) async throws -> Bool {
        try await transaction { db in
            try await db.raw(
                """
                UPDATE entries SET completing_until = \(bind: until)
                WHERE id = \(bind: id.lowercased) AND completing_until = \(bind: held) RETURNING id
                """
            ).first() != nil
        }
    }

    /// Gives up the right `claimCompletion` took (the upload was refused), if this request still holds it (its
    /// `completing_until` is still `held`).
    func releaseCompletion(id: UUID, held: Int) async throws {
        try await transaction { db in
            try await db.raw(
                "UPDATE entries SET completing_until = NULL WHERE id = \(bind: id.lowercased) AND completing_until = \(bind: held)"
            ).run()
        }
    }

    /// Marks the user's entry `uploaded`, inside the caller's transaction, when its status is one of `fromStatuses`;
    /// `durationSeconds`, the audio's own length, replaces the one the client declared. Answers the entry afterwards and
    /// whether it changed; nil when the user has no such entry. A completion claim stays as it is: the request holding
    /// it renews it until it has answered, and a claim that vanished would read as one taken over.
    static func markUploaded(
        id: UUID, userID: UUID, durationSeconds: Double?, fromStatuses: Set<EntryStatus>, in db: any SQLDatabase
    ) async throws -> (entry: EntryRecord, changed: Bool)? {
        guard var entry = try await liveEntry(db, id: id, userID: userID) else { return nil }
        guard fromStatuses.contains(entry.status) else { return (entry, false) }
        let seq = try await nextChange(db, userID: userID)
        let now = StoredTime.now()
        let duration = durationSeconds ?? entry.durationSeconds
        try await db.raw(
            """
            UPDATE entries SET status = \(bind: EntryStatus.uploaded.rawValue), failure_reason = NULL, transcription_percent = NULL,
                change_seq = \(bind: seq), updated_at = \(bind: now), upload_expires_at = NULL,
                duration_s = \(bind: duration)
            WHERE id = \(bind: id.lowercased)
            """
        ).run()
        entry.durationSeconds = duration
        entry.status = .uploaded
        entry.failureReason = nil
        entry.transcriptionPercent = nil
        entry.changeSeq = seq
        entry.updatedAt = StoredTime.date(milliseconds: now)
        return (entry, true)
    }

    /// Applies the user's edit; nil when the user has no such entry. Throws `QuotaExceeded`, changing nothing, when
    /// the edit adds text past the user's storage quota (an edit that shrinks the text always goes through).
    func edit(id: UUID, userID: UUID, _ edit: EntryEdit, quotaBytes: Int = .max) async throws -> EntryRecord? {
        try await transaction { db in
            guard var entry = try await Self.liveEntry(db, id: id, userID: userID) else { return nil }
            let textBytesBefore = try await Self.textBytes(id: id, in: db)
            let before = entry
            edit.apply(
                title: &entry.title, text: &entry.transcriptClean, tags: &entry.tags, mood: &entry.mood,
                createdAt: &entry.createdAt, timeZone: &entry.timeZone)
            // Moved to another moment: its file name and the day it belongs to follow.
            let zone = TimeZone(identifier: entry.timeZone) ?? .gmt
            if edit.moment != nil {
                entry.filename = RecordingFilename.make(
                    id: entry.id, start: entry.createdAt, timeZone: zone,
                    fileExtension: (entry.filename as NSString).pathExtension)
            }
            if edit.text != nil {
                // Words the person wrote themselves have been looked at; a recording's are theirs now, unless they went
                // back to what was heard.
                entry.reviewReason = nil
                entry.wordsEdited = entry.kind == .audio && entry.transcriptClean != entry.transcriptRaw
            }
            entry.changeSeq = try await Self.nextChange(db, userID: userID)
            // After the person's row is held (by `nextChange`): one change of their vocabulary at a time.
            try await Self.learnVocabulary(from: before, to: entry, in: db)
            let now = StoredTime.now()
            entry.updatedAt = StoredTime.date(milliseconds: now)
            let tags = String(decoding: try JSONEncoder().encode(entry.tags), as: UTF8.self)
            try await db.raw(
                """
                UPDATE entries SET title = \(bind: entry.title), transcript_clean = \(bind: entry.transcriptClean),
                    created_at = \(bind: StoredTime.milliseconds(entry.createdAt)), tz = \(bind: entry.timeZone),
                    filename = \(bind: entry.filename), local_day = \(bind: LocalDay(entry.createdAt, in: zone).number),
                    review_reason = \(bind: entry.reviewReason), words_edited = \(bind: entry.wordsEdited ? 1 : 0),
                    tags = \(bind: tags), mood = \(bind: entry.mood), change_seq = \(bind: entry.changeSeq), updated_at = \(bind: now)
                WHERE id = \(bind: id.lowercased)
                """
            ).run()
            let added = try await Self.textBytes(id: id, in: db) - textBytesBefore
            if added > 0 { try await Self.checkQuota(userID: userID, adding: added, quotaBytes: quotaBytes, in: db) }
            return entry
        }
    }

    /// What an edit teaches the person's vocabulary: words typed in place of words the recognizer heard (read again
    /// from what was heard at each edit, so that a word saved in the middle of typing, "Sio" on the way to "Siobhan",
    /// or a correction taken back, goes), the names in its title and its tags; each learned again when it changed.
    private static func learnVocabulary(from before: EntryRecord, to after: EntryRecord, in db: any SQLDatabase) async throws {
        let changed: [VocabularySource: Bool] = [
            .correction: after.transcriptClean != before.transcriptClean, .title: after.title != before.title,
            .tag: after.tags != before.tags,
        ]
        for (source, words) in VocabularyLearning.taught(by: after) where changed[source] == true {
            try await VocabularyStore.relearn(words, from: source, entryID: after.id, userID: after.userID, in: db)
        }
    }

    private static func textBytes(id: UUID, in db: any SQLDatabase) async throws -> Int {
        try await db.raw("SELECT text_bytes FROM entries WHERE id = \(bind: id.lowercased)").first()?
            .decode(column: "text_bytes", as: Int.self) ?? 0
    }

    /// Removes entries whose upload did not arrive by `deadline` (their upload URL expired before it, with a margin for
    /// an upload still streaming): tombstones, as a deletion makes, which a retry of the same entry brings back.
    /// Answers the incoming blobs the caller must now remove; at most `limit` at a time.
    func sweepAbandonedUploads(deadline: Date, limit: Int = 100) async throws -> [String] {
        let cutoff = StoredTime.milliseconds(deadline)
        let abandoned = try await driver.read { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: EntryRecord.columns) FROM entries
                WHERE upload_expires_at < \(bind: cutoff) AND status = 'pending_upload' AND deleted_at IS NULL
                LIMIT \(bind: limit)
                """
            ).all().map(EntryRecord.init(row:))
        }
        var incoming: [String] = []
        for entry in abandoned {
            let removed = try await transaction { db in
                // Looked at again in the transaction: an upload may have completed, or a retry moved the deadline.
                guard
                    try await db.raw(
                        """
                        SELECT id FROM entries WHERE id = \(bind: entry.id.lowercased) AND status = 'pending_upload'
                            AND deleted_at IS NULL AND upload_expires_at < \(bind: cutoff)
                        """
                    ).first() != nil
                else { return false }
                try await Self.tombstone(entry, keepingUploadDeadline: true, in: db)
                return true
            }
            if removed, let key = entry.audioKey { incoming.append(BlobKey.incoming(ofAudio: key)) }
        }
        return incoming
    }

    /// Turns the entry into a tombstone: its content is erased and its id goes out in the next delta.
    static func tombstone(_ entry: EntryRecord, keepingUploadDeadline: Bool, in db: any SQLDatabase) async throws {
        // The person's change-sequence row first: it orders this against an edit of another entry that taught the
        // same words.
        let seq = try await nextChange(db, userID: entry.userID)
        try await VocabularyStore.forget(learnedFrom: entry.id, userID: entry.userID, in: db)
        let now = StoredTime.now()
        let deadline: SQLQueryString = keepingUploadDeadline ? "" : ", upload_expires_at = NULL"
        try await db.raw(
            """
            UPDATE entries SET deleted_at = \(bind: now), change_seq = \(bind: seq), updated_at = \(bind: now),
                title = NULL, tags = '[]', mood = NULL, transcript_raw = NULL, transcript_clean = NULL, words = NULL,
                failure_reason = NULL, language = NULL, audio_key = NULL, review_reason = NULL, purge_at = NULL\(deadline)
            WHERE id = \(bind: entry.id.lowercased)
            """
        ).run()
    }

    static func liveEntry(_ db: any SQLDatabase, id: UUID, userID: UUID) async throws -> EntryRecord? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: EntryRecord.columns) FROM entries
            WHERE id = \(bind: id.lowercased) AND user_id = \(bind: userID.lowercased) AND deleted_at IS NULL
            """
        ).first().map(EntryRecord.init(row:))
    }

    /// Takes the user's next change number; the row lock it takes orders the user's writers.
    static func nextChange(_ db: any SQLDatabase, userID: UUID) async throws -> Int {
        guard
            let row = try await db.raw(
                "UPDATE users SET change_seq = change_seq + 1 WHERE id = \(bind: userID.lowercased) RETURNING change_seq"
            ).first()
        else { throw StoreError.userGone }
        return try row.decode(column: "change_seq", as: Int.self)
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}

/// A store call that cannot go on because the data it builds on is gone.
enum StoreError: Error {
    /// The signed-in user was deleted while the request ran.
    case userGone
}

extension EntryStore {
    /// Moves an uploaded (or failed, or already transcribed) entry to `transcribing`; nil when it is gone.
    func startTranscribing(id: UUID) async throws -> EntryRecord? {
        try await transaction { db in
            guard
                var entry = try await db.raw(
                    "SELECT \(unsafeRaw: EntryRecord.columns) FROM entries WHERE id = \(bind: id.lowercased) AND deleted_at IS NULL"
                ).first().map(EntryRecord.init(row:)), entry.kind == .audio, entry.status != .pendingUpload
            else { return nil }
            guard entry.status != .transcribing else { return entry }
            entry.changeSeq = try await Self.nextChange(db, userID: entry.userID)
            entry.status = .transcribing
            try await db.raw(
                """
                UPDATE entries SET status = 'transcribing', transcription_percent = NULL, change_seq = \(bind: entry.changeSeq),
                    updated_at = \(bind: StoredTime.now())
                WHERE id = \(bind: id.lowercased)
                """
            ).run()
            return entry
        }
    }

    /// Records how much of a recording being transcribed the engine has heard, for its owner's devices to show.
    func recordTranscriptionProgress(entryID: UUID, userID: UUID, percent: Int) async throws {
        try await transaction { db in
            let seq = try await Self.nextChange(db, userID: userID)
            try await db.raw(
                """
                UPDATE entries SET transcription_percent = \(bind: percent), change_seq = \(bind: seq),
                    updated_at = \(bind: StoredTime.now())
                WHERE id = \(bind: entryID.lowercased) AND status = 'transcribing' AND deleted_at IS NULL
                """
            ).run()
        }
    }

    /// Stores a transcript and marks the entry `transcribed`, inside the caller's transaction.
    static func storeTranscript(_ transcript: Transcript, entryID: UUID, userID: UUID, in db: any SQLDatabase) async throws {
        let seq = try await nextChange(db, userID: userID)
        let words = String(decoding: try JSONEncoder().encode(transcript.words), as: UTF8.self)
        try await db.raw(
            """
            UPDATE entries SET status = 'transcribed', failure_reason = NULL, transcript_raw = \(bind: transcript.raw),
                transcript_clean = \(bind: transcript.clean), words = \(bind: words), language = \(bind: transcript.language),
                no_speech = \(bind: transcript.noSpeech ? 1 : 0), review_reason = \(bind: transcript.reviewReason),
                words_edited = 0, transcription_percent = NULL, change_seq = \(bind: seq), updated_at = \(bind: StoredTime.now())
            WHERE id = \(bind: entryID.lowercased) AND deleted_at IS NULL
            """
        ).run()
        // The words heard now are the transcript: the corrections of the words it replaced teach nothing any more.
        try await VocabularyStore.relearn([], from: .correction, entryID: entryID, userID: userID, in: db)
    }

    /// Marks the entry `failed` with a reason for its owner, inside the caller's transaction.
    static func markFailed(entryID: UUID, reason: String, in db: any SQLDatabase) async throws {
        guard
            let row = try await db.raw(
                "SELECT user_id FROM entries WHERE id = \(bind: entryID.lowercased) AND deleted_at IS NULL"
            ).first()
        else { return }
        let seq = try await nextChange(db, userID: try row.decodeUUID(column: "user_id"))
        try await db.raw(
            """
            UPDATE entries SET status = 'failed', failure_reason = \(bind: reason), transcription_percent = NULL,
                change_seq = \(bind: seq), updated_at = \(bind: StoredTime.now())
            WHERE id = \(bind: entryID.lowercased)
            """
        ).run()
    }
}
