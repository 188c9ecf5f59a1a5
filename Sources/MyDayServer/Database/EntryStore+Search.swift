import Foundation
import MyDayModels
import MyDaySearch
import SQLKit

/// What a search asks of a person's entries: the query's terms and every filter; all must hold.
struct EntrySearch: Sendable {
    var query: SearchQuery
    /// Days in the entries' own time zones, both included.
    var from: LocalDay?
    var to: LocalDay?
    /// Each must be among the entry's tags (case aside).
    var tags: [String] = []
    /// The entry's mood must be one of these.
    var moods: [Int] = []
    var kind: EntryKind?
    var statuses: [EntryStatus] = []
}

extension EntryStore {
    /// One page of the user's live entries that match, best first (newest first when there are no words), among
    /// those the server had at `asOf` (ms): later pages of one search neither repeat nor skip when entries arrive.
    func search(_ search: EntrySearch, userID: UUID, asOf: Int, offset: Int, limit: Int) async throws
        -> (entries: [EntryRecord], hasMore: Bool)
    {
        let columns = EntryRecord.columns.split(separator: ",").map { "e." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .joined(separator: ", ")
        var query: SQLQueryString
        var order: SQLQueryString = "e.created_at DESC, e.id DESC"
        let postgres = driver.engine == .postgres
        if postgres, let tsQuery = search.query.tsQuery {
            query = """
                SELECT \(unsafeRaw: columns) FROM entries e
                WHERE e.search_vector @@ to_tsquery('myday_search', \(bind: tsQuery))
                """
            order = """
                ts_rank('{0.1, 0.25, 0.5, 1.0}', e.search_vector, to_tsquery('myday_search', \(bind: tsQuery)), 1) DESC, \
                e.created_at DESC, e.id DESC
                """
        } else if let words = search.query.fts5Expression(columns: ["title", "tags", "body"]) {
            let owner = userID.lowercased.replacingOccurrences(of: "-", with: "")
            query = """
                SELECT \(unsafeRaw: columns) FROM entries_search JOIN entries e ON e.rowid = entries_search.rowid
                WHERE entries_search MATCH \(bind: "owner : \"\(owner)\" AND \(words)")
                """
            order = "bm25(entries_search, 0.0, 4.0, 2.0, 1.0), e.created_at DESC, e.id DESC"
        } else {
            query = "SELECT \(unsafeRaw: columns) FROM entries e WHERE 1 = 1"
        }
        query += " AND e.user_id = \(bind: userID.lowercased) AND e.deleted_at IS NULL AND e.added_at <= \(bind: asOf)"
        for (from, to) in [(search.from, search.to), (search.query.dates?.from, search.query.dates?.to)] {
            if let from { query += " AND e.local_day >= \(bind: from.number)" }
            if let to { query += " AND e.local_day <= \(bind: to.number)" }
        }
        for tag in search.tags {
            let element = String(decoding: try JSONEncoder().encode(tag), as: UTF8.self)
            let pattern = "%" + Self.escapeLike(element) + "%"
            query += postgres ? " AND e.tags ILIKE \(bind: pattern) ESCAPE '\\'" : " AND e.tags LIKE \(bind: pattern) ESCAPE '\\'"
        }
        if !search.moods.isEmpty {
            query += " AND e.mood IN (\(search.moods.map { "\(bind: $0)" as SQLQueryString }.joined(separator: ", ")))"
        }
        if let kind = search.kind { query += " AND e.kind = \(bind: kind.rawValue)" }
        if !search.statuses.isEmpty {
            query +=
                " AND e.status IN (\(search.statuses.map { "\(bind: $0.rawValue)" as SQLQueryString }.joined(separator: ", ")))"
        }
        query += " ORDER BY " + order + " LIMIT \(literal: limit + 1) OFFSET \(literal: offset)"
        let finalQuery = query
        let rows = try await driver.read { db in try await db.raw(finalQuery).all() }
        return (try rows.prefix(limit).map(EntryRecord.init(row:)), rows.count > limit)
    }
}
