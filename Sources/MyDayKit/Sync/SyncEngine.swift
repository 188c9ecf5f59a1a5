import Foundation

/// Brings the local store and the server together: deletions made here, then the server's changes, then edits.
///
/// Pulls `GET /v1/entries?since=` pages until `has_more` is false and merges each page in one
/// transaction (ADR 0013: the server's status and transcripts win; a local edit wins only when newer
/// than the server's `updated_at`; tombstones delete the entry and its audio here).
public struct SyncEngine: Sendable {
    private let store: LocalStore
    private let client: any MyDayClient
    private let library: RecordingLibrary
    private let pageSize: Int
    private let now: @Sendable () -> Date

    public init(
        store: LocalStore, client: any MyDayClient, library: RecordingLibrary, pageSize: Int = 200,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.client = client
        self.library = library
        self.pageSize = pageSize
        self.now = now
    }

    /// What one sync did.
    public struct Summary: Sendable, Equatable {
        public var pages = 0
        public var received = 0
        public var removed = 0
        public var deletedOnServer = 0
        public var editsPushed = 0
        /// The entries the server sent, in the order of their changes, and those it said were deleted.
        public var receivedIDs: [UUID] = []
        public var removedIDs: [UUID] = []
    }

    @discardableResult
    public func sync() async throws -> Summary {
        var summary = Summary()
        for entry in try store.pendingDeletes() {
            do { try await client.deleteEntry(entry.id) } catch MyDayClientError.server(404, _, _, _) {}
            if let path = try store.markDeleted(entry.id) { library.removeAudio(path) }
            summary.deletedOnServer += 1
        }
        var cursor = try store.syncCursor()
        while true {
            let page = try await client.changes(since: cursor, limit: pageSize)
            for path in try store.applyServerChanges(page, now: now()) { library.removeAudio(path) }
            summary.pages += 1
            summary.received += page.entries.count
            summary.removed += page.deletedIDs.count
            summary.receivedIDs += page.entries.map(\.id)
            summary.removedIDs += page.deletedIDs
            cursor = page.nextCursor
            if !page.hasMore { break }
        }
        for entry in try store.pendingEdits() where entry.serverUpdatedAt != nil {
            guard let edit = entry.pendingEdit, let editedAt = entry.editedAt else { continue }
            do {
                try store.markEditPushed(try await client.edit(entry.id, edit), sentAt: editedAt)
                summary.editsPushed += 1
            } catch MyDayClientError.server(404, _, _, _) {
                if let path = try store.markDeleted(entry.id) { library.removeAudio(path) }
            } catch MyDayClientError.server(let status, _, _, _) where (400..<500).contains(status) && status != 429 {
                // The server refuses this edit for good: keep its version instead.
                try store.markEditPushed(try await client.entry(entry.id), sentAt: editedAt)
            }
        }
        return summary
    }
}
