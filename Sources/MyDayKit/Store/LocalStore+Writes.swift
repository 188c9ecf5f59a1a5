import Foundation
import GRDB
import MyDayModels

/// A recording that is complete and in the library, ready to be queued.
public struct FinishedRecording: Sendable, Equatable {
    public var id: UUID
    public var startedAt: Date
    public var timeZone: String
    public var duration: TimeInterval
    /// The file's path relative to the recording library.
    public var audioPath: String
    public var container: AudioContainer
    public var sizeBytes: Int
    public var language: String?

    public init(
        id: UUID, startedAt: Date, timeZone: String, duration: TimeInterval, audioPath: String, container: AudioContainer,
        sizeBytes: Int, language: String? = nil
    ) {
        self.id = id
        self.startedAt = startedAt
        self.timeZone = timeZone
        self.duration = duration
        self.audioPath = audioPath
        self.container = container
        self.sizeBytes = sizeBytes
        self.language = language
    }
}

extension LocalStore {
    /// A recording was saved: the entry appears at once and its upload is queued, both in one transaction.
    public func recordFinished(
        _ recording: FinishedRecording, awaitingDeviceTranscript: Bool = false, sourceSHA256: String? = nil, now: Date = Date()
    ) throws {
        let zone = TimeZone(identifier: recording.timeZone) ?? .current
        let entry = LocalEntry(
            id: recording.id, createdAt: recording.startedAt, timeZone: recording.timeZone, duration: recording.duration,
            kind: .audio, state: .queued,
            filename: RecordingFilename.make(
                id: recording.id, start: recording.startedAt, timeZone: zone,
                fileExtension: recording.container.fileExtension),
            contentType: recording.container.rawValue, sizeBytes: recording.sizeBytes, language: recording.language,
            audioPath: recording.audioPath)
        try writer.write { db in
            try entry.insert(db)
            try PendingUpload(
                entryID: entry.id, attempts: 0, nextAttemptAt: now, awaitsDeviceTranscript: awaitingDeviceTranscript,
                sourceSHA256: sourceSHA256
            ).insert(db)
        }
    }

    /// The device finished transcribing a queued recording: its words (nil when it could not) go with the upload.
    public func attachDeviceTranscript(_ transcript: DeviceTranscript?, to id: UUID) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE upload SET deviceTranscript = ?, awaitsDeviceTranscript = 0 WHERE entryID = ?",
                arguments: [transcript.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }, id])
        }
    }

    /// A typed entry was written; it is queued like a recording.
    @discardableResult
    /// `sourceSHA256` names what an imported note came from (see `PendingUpload.sourceSHA256`).
    public func noteWritten(
        _ text: String, id: UUID = UUID(), at date: Date = Date(), timeZone: TimeZone = .current, sourceSHA256: String? = nil
    ) throws -> LocalEntry {
        let entry = LocalEntry(
            id: id, createdAt: date, timeZone: timeZone.identifier, duration: 0, kind: .text, state: .queued,
            filename: RecordingFilename.make(id: id, start: date, timeZone: timeZone, fileExtension: "txt"),
            transcriptClean: text)
        try writer.write { db in
            try entry.insert(db)
            try PendingUpload(entryID: id, attempts: 0, nextAttemptAt: date, sourceSHA256: sourceSHA256).insert(db)
        }
        return entry
    }

    /// Claims a queued entry for an upload attempt. Answers it as it is now, or nil when it is no longer
    /// queued (another pass took it, it was deleted or uploaded meanwhile): then the attempt must not start.
    public func claimForUpload(_ id: UUID) throws -> LocalEntry? {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE entry SET state = ? WHERE id = ? AND state = ? AND pendingDelete = 0",
                arguments: [LocalEntryState.uploading, id, LocalEntryState.queued])
            return db.changesCount == 1 ? try LocalEntry.fetchOne(db, key: id) : nil
        }
    }

    /// The server confirmed the entry (and its audio): the queue forgets it and the server's view is kept.
    public func markUploaded(_ server: ServerEntry, now: Date = Date()) throws {
        try writer.write { db in
            try Self.rememberImport(of: server.id, as: server.id, in: db)
            try PendingUpload.deleteOne(db, key: server.id)
            guard let local = try LocalEntry.fetchOne(db, key: server.id) else { return }
            var merged = Self.merge(server, into: local)
            if merged.audioPath != nil { merged.audioConfirmedAt = merged.audioConfirmedAt ?? now }
            try merged.update(db)
        }
    }

    /// Lets go of the audio files the server confirmed before `cutoff`: the entries keep playing from the server.
    /// Audio not yet confirmed (waiting, uploading, refused, or still to be sent) is never let go: only `markUploaded`
    /// sets `audioConfirmedAt`, and a state that still needs the file is never released. Answers the files to remove.
    public func releaseConfirmedAudio(confirmedBefore cutoff: Date) throws -> [String] {
        try writer.write { db in
            let released = try LocalEntry.filter(Column("audioPath") != nil && Column("audioConfirmedAt") < cutoff)
                .fetchAll(db)
                .filter { ![.queued, .uploading, .uploadFailed, .pendingUpload].contains($0.state) }
            let files = released.compactMap(\.audioPath)
            for var entry in released {
                entry.audioPath = nil
                try entry.update(db)
            }
            return files
        }
    }

    /// An attempt failed in a way a later attempt may fix; the entry goes back to the queue until `next`.
    public func markUploadRetry(_ id: UUID, reason: String, next: Date) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE entry SET state = ? WHERE id = ? AND state IN (?, ?)",
                arguments: [LocalEntryState.queued, id, LocalEntryState.uploading, LocalEntryState.queued])
            try db.execute(
                sql: "UPDATE upload SET attempts = attempts + 1, nextAttemptAt = ?, lastError = ? WHERE entryID = ?",
                arguments: [next, reason, id])
        }
    }

    /// The queue stopped before this entry for a reason of its own (no session): it waits, no attempt counted.
    public func markUploadPaused(_ id: UUID, reason: String) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE entry SET state = ? WHERE id = ? AND state = ?",
                arguments: [LocalEntryState.queued, id, LocalEntryState.uploading])
            try db.execute(sql: "UPDATE upload SET lastError = ? WHERE entryID = ?", arguments: [reason, id])
        }
    }

    /// The server refused the entry for good; it stays on this device with the reason, until a retry.
    public func markUploadGaveUp(_ id: UUID, reason: String) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE entry SET state = ?, failureReason = ? WHERE id = ?",
                arguments: [LocalEntryState.uploadFailed, reason, id])
            try db.execute(sql: "UPDATE upload SET lastError = ? WHERE entryID = ?", arguments: [reason, id])
        }
    }

    /// A person asked to try a refused upload again.
    public func retryUpload(_ id: UUID, now: Date = Date()) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE entry SET state = ?, failureReason = NULL WHERE id = ? AND state = ?",
                arguments: [LocalEntryState.queued, id, LocalEntryState.uploadFailed])
            try db.execute(
                sql: "UPDATE upload SET attempts = 0, nextAttemptAt = ?, lastError = NULL WHERE entryID = ?",
                arguments: [now, id])
        }
    }

    /// Uploads a dead process left `uploading` go back to the queue, without the device transcript it was
    /// still making; call once at launch.
    public func requeueInterruptedUploads() throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE entry SET state = ? WHERE state = ?", arguments: [LocalEntryState.queued, LocalEntryState.uploading])
            try Self.stopWaitingForDeviceTranscripts(db)
        }
    }

    /// Uploads held back for the words this device was making go without them (the server transcribes instead);
    /// words that still come are attached to an upload that has not left yet, else dropped.
    public func stopWaitingForDeviceTranscripts() throws {
        try writer.write { db in try Self.stopWaitingForDeviceTranscripts(db) }
    }

    private static func stopWaitingForDeviceTranscripts(_ db: Database) throws {
        try db.execute(sql: "UPDATE upload SET awaitsDeviceTranscript = 0 WHERE awaitsDeviceTranscript = 1")
    }

    /// A person edited an entry here: shown at once, pushed at the next sync.
    public func editEntry(_ id: UUID, _ edit: EntryEdit, at date: Date = Date()) throws {
        try writer.write { db in
            guard var entry = try LocalEntry.fetchOne(db, key: id) else { return }
            let before = entry.editableValues
            var base = entry.editBase ?? EntryEdit()
            if edit.title != nil { base.title = base.title ?? before.title }
            if edit.text != nil { base.text = base.text ?? before.text }
            if edit.tags != nil { base.tags = base.tags ?? before.tags }
            if edit.mood != nil { base.mood = base.mood ?? before.mood }
            if edit.moment != nil { base.moment = base.moment ?? before.moment }
            entry.editBase = base
            entry = entry.applying(edit)
            entry.pendingEdit = (entry.pendingEdit ?? EntryEdit()).merged(with: edit)
            entry.editedAt = date
            try entry.update(db)
        }
    }

    /// The server accepted the pending edit sent at `sentAt`; a newer local edit stays pending.
    public func markEditPushed(_ server: ServerEntry, sentAt: Date) throws {
        try writer.write { db in
            guard var local = try LocalEntry.fetchOne(db, key: server.id) else { return }
            let stillPending = local.editedAt.map { $0 > sentAt } ?? false
            if !stillPending {
                local.pendingEdit = nil
                local.editedAt = nil
                local.editBase = nil
            } else if let edit = local.pendingEdit {
                // The server holds what was sent: the newer edit starts from its row, whatever its clock says.
                let theirs = LocalEntry(server, audioPath: nil).editableValues
                var base = local.editBase ?? EntryEdit()
                if edit.title != nil { base.title = theirs.title }
                if edit.text != nil { base.text = theirs.text }
                if edit.tags != nil { base.tags = theirs.tags }
                if edit.mood != nil { base.mood = theirs.mood }
                if edit.moment != nil { base.moment = theirs.moment }
                local.editBase = base
            }
            try Self.merge(server, into: local).update(db)
        }
    }

    /// A person deleted an entry here. Answers the audio path to remove now, if the server cannot have it.
    ///
    /// An entry no upload attempt ever reached the server with goes at once; any other is hidden and
    /// deleted on the server at the next sync (an attempt that failed may still have created it there).
    @discardableResult
    public func deleteEntry(_ id: UUID) throws -> String? {
        try writer.write { db in
            guard var entry = try LocalEntry.fetchOne(db, key: id) else { return nil }
            let upload = try PendingUpload.fetchOne(db, key: id)
            let neverAttempted = upload.map { $0.attempts == 0 && $0.lastError == nil } ?? false
            let neverSent = entry.serverUpdatedAt == nil && entry.state == .queued && neverAttempted
            if neverSent {
                try entry.delete(db)
                return entry.audioPath
            }
            entry.pendingDelete = true
            try entry.update(db)
            return nil
        }
    }

    /// The server confirmed a deletion (or never had the entry). Answers the audio path to remove.
    @discardableResult
    public func markDeleted(_ id: UUID) throws -> String? {
        try writer.write { db in
            let entry = try LocalEntry.fetchOne(db, key: id)
            try entry?.delete(db)
            return entry?.audioPath
        }
    }

    /// The server already had the file this queued import came from, as another entry: the queued one goes (the next
    /// sync brings the other). Answers the audio path to remove.
    @discardableResult
    public func forgetDuplicateImport(_ id: UUID, existing: UUID) throws -> String? {
        try writer.write { db in
            try Self.rememberImport(of: id, as: existing, in: db)
            let entry = try LocalEntry.fetchOne(db, key: id)
            try entry?.delete(db)
            return entry?.audioPath
        }
    }

    /// Notes which entry the file the upload of `id` was imported from became, when it was imported.
    private static func rememberImport(of id: UUID, as entryID: UUID, in db: Database) throws {
        guard let sha256 = try PendingUpload.fetchOne(db, key: id)?.sourceSHA256 else { return }
        try db.execute(
            sql:
                "INSERT INTO importedSource (sha256, entryID) VALUES (?, ?) ON CONFLICT (sha256) DO UPDATE SET entryID = excluded.entryID",
            arguments: [sha256, entryID])
    }

    /// Merges one page of server changes (ADR 0013) and keeps its cursor. Answers audio paths no longer needed.
    @discardableResult
    public func applyServerChanges(_ changes: EntryChanges, now: Date = Date()) throws -> [String] {
        try writer.write { db in
            var orphanedAudio: [String] = []
            let known = try LocalEntry.fetchAll(db, keys: changes.entries.map(\.id))
            var locals = Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for server in changes.entries {
                guard let local = locals[server.id] else {
                    let inserted = LocalEntry(server, audioPath: nil)
                    try inserted.insert(db)
                    locals[server.id] = inserted
                    continue
                }
                if local.pendingDelete { continue }
                if local.state.isOnItsWayUp && server.status == .pendingUpload {
                    // The server has the row but not the audio yet: the local upload goes on untouched.
                    continue
                }
                if local.state.isOnItsWayUp { try PendingUpload.deleteOne(db, key: server.id) }
                let merged = Self.merge(server, into: local)
                try merged.update(db)
                locals[server.id] = merged
            }
            for id in changes.deletedIDs {
                guard let local = try LocalEntry.fetchOne(db, key: id) else { continue }
                // Audio that never reached the server stays: the server removes an entry whose upload did not come
                // in time, and this device's next attempt brings it back (an entry its owner deleted on another
                // device is refused then, and waits here with the reason, for the person to decide).
                if local.state.isOnItsWayUp && !local.pendingDelete { continue }
                try local.delete(db)
                if let path = local.audioPath { orphanedAudio.append(path) }
            }
            try db.execute(
                sql:
                    "INSERT INTO syncState (id, cursor, lastSyncAt) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET cursor = excluded.cursor, lastSyncAt = excluded.lastSyncAt",
                arguments: [changes.nextCursor, now])
            return orphanedAudio
        }
    }

    /// Ties the store to the account that signed in. A different account than the one the store holds
    /// finds it emptied first, unless entries of the other account have not reached the server yet (or
    /// `holdingUnsent`: a recording under way, which is no entry yet). Answers the audio paths of a forgotten diary.
    @discardableResult
    public func claim(for accountID: UUID, holdingUnsent: Bool = false) throws -> [String] {
        try writer.write { db in
            let owner = try UUID.fetchOne(db, sql: "SELECT accountID FROM syncState WHERE id = 1")
            var forgotten: [String] = []
            if let owner, owner != accountID {
                guard try !holdingUnsent && Self.unsentCount(db) == 0 else {
                    throw LocalStoreError.anotherAccountsEntriesUnsent
                }
                forgotten = try Self.forgetAll(db)
            }
            try db.execute(
                sql:
                    "INSERT INTO syncState (id, accountID) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET accountID = excluded.accountID",
                arguments: [accountID])
            return forgotten
        }
    }

    /// Sign-out or account deletion: forget every entry, the queue and the cursor. Answers the audio paths.
    @discardableResult
    public func forgetEverything() throws -> [String] {
        try writer.write { db in try Self.forgetAll(db) }
    }

    /// Forgets everything, in one transaction with the check, unless something is unsent. Answers the audio paths.
    public func forgetEverythingIfAllSent() throws -> [String] {
        try writer.write { db in
            let unsent = try Self.unsentCount(db)
            guard unsent == 0 else { throw LocalStoreError.unsent(unsent) }
            return try Self.forgetAll(db)
        }
    }

    private static func forgetAll(_ db: Database) throws -> [String] {
        let paths = try String.fetchAll(db, sql: "SELECT audioPath FROM entry WHERE audioPath IS NOT NULL")
        try PendingUpload.deleteAll(db)
        try LocalEntry.deleteAll(db)
        try db.execute(sql: "DELETE FROM syncState")
        return paths
    }

    /// Entries, edits and deletions the server has not received yet.
    static func unsentCount(_ db: Database) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT (SELECT COUNT(*) FROM upload)
                     + (SELECT COUNT(*) FROM entry WHERE pendingDelete = 1 OR (pendingEdit IS NOT NULL AND id NOT IN (SELECT entryID FROM upload)))
                """) ?? 0
    }

    /// The server's row wins, but a local edit newer than it is laid over it and stays pending. An edit
    /// made before the server had the entry at all is newer than anything the server knows.
    ///
    /// Field by field: an edited field stays when the edit is newer than the server's row, or when the
    /// server still has the value the edit started from (a transcription finishing changes the row's
    /// `updated_at`, not the title). A deletion made here survives any server row.
    static func merge(_ server: ServerEntry, into local: LocalEntry) -> LocalEntry {
        var merged = LocalEntry(server, audioPath: local.audioPath)
        merged.audioConfirmedAt = local.audioConfirmedAt
        merged.pendingDelete = local.pendingDelete
        guard let edit = local.pendingEdit, let editedAt = local.editedAt else { return merged }
        let newer = local.serverUpdatedAt == nil || editedAt > server.updatedAt
        let base = local.editBase ?? EntryEdit()
        let theirs = merged.editableValues
        var kept = EntryEdit()
        if let title = edit.title, newer || theirs.title == base.title { kept.title = title }
        if let text = edit.text, newer || theirs.text == base.text { kept.text = text }
        if let tags = edit.tags, newer || theirs.tags == base.tags { kept.tags = tags }
        if let mood = edit.mood, newer || theirs.mood == base.mood { kept.mood = mood }
        if let moment = edit.moment, newer || theirs.moment == base.moment { kept.moment = moment }
        guard !kept.isEmpty else { return merged }
        merged = merged.applying(kept)
        merged.pendingEdit = kept
        merged.editedAt = editedAt
        merged.editBase = base
        return merged
    }
}

/// Why the local store refused a change.
public enum LocalStoreError: Error, Equatable, CustomStringConvertible {
    /// Forgetting now would lose this many entries, edits or deletions the server has not received.
    case unsent(Int)
    /// The device holds entries of another account that have not reached the server yet.
    case anotherAccountsEntriesUnsent

    public var description: String {
        switch self {
        case .unsent(let count):
            "\(count) \(count == 1 ? "change has" : "changes have") not reached the server yet; sync first, or discard them."
        case .anotherAccountsEntriesUnsent:
            "This device holds another account's entries that have not reached the server; sign in as that account and sync first."
        }
    }
}
