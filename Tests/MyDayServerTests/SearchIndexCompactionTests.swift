import Foundation
import Logging
import MyDaySearch
import Testing

@testable import MyDayServer

/// The embedded database's full-text indexes are merged into one segment each when a quiet moment follows many writes,
/// and searches find the same afterwards.
@Suite struct SearchIndexCompactionTests {
    @Test func manyWritesThenAQuietMomentMergeTheIndexAndSearchesFindTheSame() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            let userID = try #require(UUID(uuidString: try await api.register().userID))
            try await server.withDatabase { driver in
                let sqlite = try #require(driver as? SQLiteDriver)
                let entries = EntryStore(driver: driver)
                var compaction = SearchIndexCompaction(driver: sqlite, logger: Logger(label: "test"), minimumWrites: 30)
                // Given 40 entries written one at a time, each in its own transaction (more than the 30 a merge follows)
                for index in 0..<40 {
                    let entry = NewEntry(
                        id: UUID(), createdAt: Date(timeIntervalSince1970: 1_770_000_000 + Double(index) * 60),
                        timeZone: .gmt, durationSeconds: 0, kind: .text, text: "Walked to the harbour, day \(index).")
                    _ = try await entries.create(entry, userID: userID)
                }
                let search = EntrySearch(query: SearchQuery(parsing: "harbour day", dates: nil))
                let before = try await entries.search(search, userID: userID, asOf: .max, offset: 0, limit: 30)

                // When the writes are looked at right after the last one, then again with none in between
                let first = try await compaction.look()
                let second = try await compaction.look()

                // Then only the second, after a quiet moment, merges the index, and it took at least one transaction
                #expect(first == nil)
                #expect((second ?? 0) > 0)
                // And searches find the same, the index is sound, and merging again has nothing left to do
                let after = try await entries.search(search, userID: userID, asOf: .max, offset: 0, limit: 30)
                #expect(after.entries.map(\.id) == before.entries.map(\.id) && after.hasMore == before.hasMore)
                #expect(before.entries.count == 30 && before.hasMore)
                for table in ["entries_search", "entries_labels"] {
                    try await sqlite.write { db in
                        try await db.raw(
                            "INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: table), rank) VALUES ('integrity-check', 0)"
                        )
                        .run()
                    }
                }
                #expect(try await SearchIndexCompaction.merge(sqlite) == 0)
                #expect(try await compaction.look() == nil)
            }
        }
    }
}
