import Foundation
import GRDB
import MyDaySearch

extension LocalStore {
    /// The entries on this device that match, by the server's rules: best first (title, then tags, then transcript;
    /// more matches first), newest first without words; deleted ones never. Date filters use each entry's own zone.
    public func search(_ query: SearchQuery, filters: SearchFilters = SearchFilters()) throws -> [LocalEntry] {
        let found = try writer.read { db in
            if let expression = query.fts5Expression(columns: ["title", "tags", "transcriptClean"]) {
                return try LocalEntry.fetchAll(
                    db,
                    sql: """
                        SELECT entry.* FROM entry JOIN entrySearch ON entrySearch.rowid = entry.rowid
                        WHERE entrySearch MATCH ? AND entry.pendingDelete = 0
                        ORDER BY bm25(entrySearch, 4.0, 2.0, 1.0), entry.createdAt DESC
                        """, arguments: [expression])
            }
            return try LocalEntry.filter(Column("pendingDelete") == false).order(Column("createdAt").desc).fetchAll(db)
        }
        let ranges: [LocalDayRange?] = [LocalDayRange(from: filters.from, to: filters.to), query.dates]
        return found.filter { entry in
            let day = LocalDay(entry.createdAt, in: TimeZone(identifier: entry.timeZone) ?? .current)
            return ranges.allSatisfy { $0?.contains(day) ?? true }
                && filters.tags.allSatisfy { tag in entry.tags.contains { $0.lowercased() == tag.lowercased() } }
                && (filters.moods.isEmpty || entry.mood.map(filters.moods.contains) == true)
                && (filters.kind == nil || entry.kind == filters.kind)
        }
    }
}

extension LocalDayRange {
    /// A range of either bound or both; nil when neither is set.
    init?(from: LocalDay?, to: LocalDay?) {
        guard from != nil || to != nil else { return nil }
        self.init(from: from ?? LocalDay(year: 1, month: 1, day: 1), to: to ?? LocalDay(year: 9999, month: 12, day: 31))
    }
}
