import Foundation
import GRDB
import MyDayModels
import MyDaySearch
import Testing

@testable import MyDayKit

/// A device that kept its diary before search existed finds its old entries after the update.
struct LocalSearchMigrationTests {
    @Test func theMigrationIndexesEntriesAlreadyOnTheDevice() throws {
        // Given a store at the schema before search, holding an entry
        let queue = try DatabaseQueue()
        try LocalStore.migrator.migrate(queue, upTo: "v2: device transcripts wait with their upload")
        let id = UUID()
        let created = Date(timeIntervalSince1970: 1_773_835_200)
        try queue.write { db in
            var entry = LocalEntry(
                id: id, createdAt: created, timeZone: "Europe/Berlin", duration: 0, kind: .text, state: .transcribed,
                filename: RecordingFilename.make(id: id, start: created, timeZone: .gmt, fileExtension: "txt"),
                transcriptClean: "An old evening by the fire.")
            entry.title = "Winter"
            // Written as that version wrote it: only the columns its table had
            let row = try entry.databaseDictionary
            let columns = try db.columns(in: "entry").map(\.name).filter { row.keys.contains($0) }.sorted()
            let marks = columns.map { _ in "?" }.joined(separator: ", ")
            try db.execute(
                sql: "INSERT INTO entry (\(columns.joined(separator: ", "))) VALUES (\(marks))",
                arguments: StatementArguments(columns.map { row[$0] ?? .null }))
        }
        // When the store opens with this version
        let store = try LocalStore(writer: queue)
        // Then the old entry is found by its words and its title
        #expect(try store.search(SearchQuery(parsing: "fire")).map(\.id) == [id])
        #expect(try store.search(SearchQuery(parsing: "winter")).map(\.id) == [id])
    }
}
