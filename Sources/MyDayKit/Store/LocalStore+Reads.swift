import Foundation
import GRDB

extension LocalStore {
    /// Every entry a person sees (not those deleted here), newest first.
    public func entries() throws -> [LocalEntry] {
        try writer.read { db in try Self.visibleEntries.fetchAll(db) }
    }

    public func entry(_ id: UUID) throws -> LocalEntry? {
        try writer.read { db in try LocalEntry.fetchOne(db, key: id) }
    }

    /// The queue in order, oldest first, with each entry.
    public func pendingUploads() throws -> [(upload: PendingUpload, entry: LocalEntry)] {
        try writer.read { db in
            try PendingUpload.order(Column("nextAttemptAt")).fetchAll(db).compactMap { upload in
                try LocalEntry.fetchOne(db, key: upload.entryID).map { (upload, $0) }
            }
        }
    }

    /// What this device knows of a file with these bytes: the queued import waiting to be sent, or the entry the
    /// diary made of it (while that entry is still here).
    public func importedFile(sourceSHA256: String) throws -> (entryID: UUID, queued: Bool)? {
        try writer.read { db in
            if let queued = try PendingUpload.filter(Column("sourceSHA256") == sourceSHA256).fetchOne(db) {
                return (queued.entryID, true)
            }
            let row = try Row.fetchOne(db, sql: "SELECT entryID FROM importedSource WHERE sha256 = ?", arguments: [sourceSHA256])
            guard let entryID = row?["entryID"] as UUID?, let entry = try LocalEntry.fetchOne(db, key: entryID),
                !entry.pendingDelete
            else { return nil }
            return (entryID, false)
        }
    }

    /// Entries with edits the server has not accepted yet.
    public func pendingEdits() throws -> [LocalEntry] {
        try writer.read { db in
            try LocalEntry.filter(Column("pendingEdit") != nil && Column("pendingDelete") == false).fetchAll(db)
        }
    }

    /// Entries deleted here that the server still has.
    public func pendingDeletes() throws -> [LocalEntry] {
        try writer.read { db in try LocalEntry.filter(Column("pendingDelete") == true).fetchAll(db) }
    }

    /// Entries, edits and deletions the server has not received yet.
    public func unsentCount() throws -> Int {
        try writer.read { db in try Self.unsentCount(db) }
    }

    /// Where the next sync starts; nil before the first.
    public func syncCursor() throws -> String? {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT cursor FROM syncState WHERE id = 1") }
    }

    /// The visible entries now and after every change, for a UI to follow.
    public func observeEntries() -> AsyncValueObservation<[LocalEntry]> {
        ValueObservation.tracking { db in try Self.visibleEntries.fetchAll(db) }.values(in: writer)
    }

    /// One entry now and after every change to it; nil once it is gone.
    public func observeEntry(_ id: UUID) -> AsyncValueObservation<LocalEntry?> {
        ValueObservation.tracking { db in try LocalEntry.fetchOne(db, key: id) }.removeDuplicates().values(in: writer)
    }

    private static var visibleEntries: QueryInterfaceRequest<LocalEntry> {
        LocalEntry.filter(Column("pendingDelete") == false).order(Column("createdAt").desc)
    }
}
