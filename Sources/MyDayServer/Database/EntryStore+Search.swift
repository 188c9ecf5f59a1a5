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

    /// No filter beside the words, in the parameters or read from the query's date phrases.
    var filtersOnlyByWords: Bool {
        from == nil && to == nil && tags.isEmpty && moods.isEmpty && kind == nil && statuses.isEmpty && query.dates == nil
    }
}

extension EntryStore {
    /// One page of the user's live entries that match, best first (newest first when there are no words), among
    /// those the server had at `asOf` (ms): later pages of one search neither repeat nor skip when entries arrive.
    func search(_ search: EntrySearch, userID: UUID, asOf: Int, offset: Int, limit: Int) async throws
        -> (entries: [EntryRecord], hasMore: Bool)
    {
        let filters = try filterSQL(search, userID: userID, asOf: asOf)
        let sql = SearchSQL(engine: driver.engine, query: search.query, userID: userID)
        guard let all = sql.match(inTitlesAndTagsOnly: false), let labels = sql.match(inTitlesAndTagsOnly: true) else {
            return try await page(
                "SELECT \(unsafeRaw: Self.entryColumns) FROM entries e WHERE 1 = 1" + filters,
                order: "e.created_at DESC, e.id DESC",
                offset: offset, limit: limit)
        }
        let matching: SQLQueryString =
            "SELECT \(unsafeRaw: Self.entryColumns) FROM " + sql.from(titlesAndTagsOnly: false) + " WHERE " + all + filters
        // One statement tells whether there are more matches than can be ranked, and reads the matches in titles and
        // tags, newest first with their rank: as many as could be ranked and one more, or as many as the page needs.
        let wanted = offset + limit + 1
        let labelled = max(rankedMatches + 1, wanted)
        // On a first page with no filter, SQLite's index alone counts: all it holds are live entries, the owner's
        // word picks the person's, and none came after this moment. Later pages count what was there at the first.
        let counted: SQLQueryString =
            driver.engine == .sqlite && offset == 0 && search.filtersOnlyByWords
            ? "entries_search WHERE " + all : sql.from(titlesAndTagsOnly: false) + " WHERE " + all + filters
        let probe = try await driver.readSearchProbe(
            "SELECT 0 AS part, " + sql.count(counted, filters: filters, bound: rankedMatches + 1)
                + " AS number, \(unsafeRaw: sql.noScore) AS score, 0 AS created, '' AS id UNION ALL SELECT * FROM (SELECT 1, "
                + sql.recency + ", "
                + sql.score + ", e.created_at, e.id FROM " + sql.from(titlesAndTagsOnly: true) + " WHERE " + labels
                + filters + " ORDER BY " + sql.recent(titlesAndTagsOnly: true) + " LIMIT \(literal: labelled)) labelled")
        if probe.matches <= rankedMatches {
            return try await page(matching, order: sql.rank, offset: offset, limit: limit)
        }
        // Many matches: those in titles and tags first (ranked when few enough, else newest first), then the others,
        // newest first.
        let head =
            probe.labelled.count <= rankedMatches
            ? probe.labelled.sorted(by: SearchProbe.Match.isBetter).map(\.id)
            : probe.labelled.sorted(by: SearchProbe.Match.isNewer).map(\.id)
        let headPart = Array(head.dropFirst(offset).prefix(limit + 1))
        var entries: [EntryRecord] = []
        if !headPart.isEmpty {
            let list: SQLQueryString = headPart.map { "\(bind: $0)" as SQLQueryString }.joined(separator: ", ")
            let found = try await driver.readEntries(
                "SELECT \(unsafeRaw: Self.entryColumns) FROM entries e WHERE e.id IN (" + list + ")")
            let records = Dictionary(uniqueKeysWithValues: found.map { ($0.id.lowercased, $0) })
            entries = headPart.compactMap { records[$0] }
        }
        // Every match in a title or tag was read when fewer came than were asked for; the others follow them.
        if headPart.count <= limit, probe.labelled.count < labelled {
            let others = try await driver.readEntries(
                matching + (head.isEmpty ? "" : " AND " + sql.notIn(labels)) + " ORDER BY "
                    + sql.recent(titlesAndTagsOnly: false)
                    + " LIMIT \(literal: limit + 1 - headPart.count) OFFSET \(literal: max(0, offset - head.count))")
            entries += others
        }
        return (Array(entries.prefix(limit)), entries.count > limit)
    }

    private static let entryColumns = EntryRecord.columns.split(separator: ",")
        .map { "e." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    private func page(_ query: SQLQueryString, order: SQLQueryString, offset: Int, limit: Int) async throws
        -> (entries: [EntryRecord], hasMore: Bool)
    {
        let final = query + " ORDER BY " + order + " LIMIT \(literal: limit + 1) OFFSET \(literal: offset)"
        let entries = try await driver.readEntries(final)
        return (Array(entries.prefix(limit)), entries.count > limit)
    }

    /// `AND …` for the owner, liveness, the moment of the first page and every filter.
    private func filterSQL(_ search: EntrySearch, userID: UUID, asOf: Int) throws -> SQLQueryString {
        var sql: SQLQueryString =
            " AND e.user_id = \(bind: userID.lowercased) AND e.deleted_at IS NULL AND e.added_at <= \(bind: asOf)"
        for (from, to) in [(search.from, search.to), (search.query.dates?.from, search.query.dates?.to)] {
            if let from { sql += " AND e.local_day >= \(bind: from.number)" }
            if let to { sql += " AND e.local_day <= \(bind: to.number)" }
        }
        for tag in search.tags {
            let element = String(decoding: try JSONEncoder().encode(tag), as: UTF8.self)
            let pattern = "%" + Self.escapeLike(element) + "%"
            sql +=
                driver.engine == .postgres
                ? " AND e.tags ILIKE \(bind: pattern) ESCAPE '\\'" : " AND e.tags LIKE \(bind: pattern) ESCAPE '\\'"
        }
        if !search.moods.isEmpty {
            sql += " AND e.mood IN (\(search.moods.map { "\(bind: $0)" as SQLQueryString }.joined(separator: ", ")))"
        }
        if let kind = search.kind { sql += " AND e.kind = \(bind: kind.rawValue)" }
        if !search.statuses.isEmpty {
            sql +=
                " AND e.status IN (\(search.statuses.map { "\(bind: $0.rawValue)" as SQLQueryString }.joined(separator: ", ")))"
        }
        return sql
    }
}

/// The engine's own words for matching, ranking and recency (ADR 0025).
private struct SearchSQL {
    let engine: SQLEngine
    let query: SearchQuery
    let userID: UUID

    /// The entries, joined on SQLite to the index searched: titles and tags have one of their own (`entries_labels`).
    /// `CROSS JOIN` makes SQLite read the index first: given a filter on the entries (days, mood), it would otherwise
    /// walk the person's entries and run the whole match once for each (seconds for 10,000 entries).
    func from(titlesAndTagsOnly: Bool) -> SQLQueryString {
        guard engine == .sqlite else { return "entries e" }
        return titlesAndTagsOnly
            ? "entries_labels CROSS JOIN entries e ON e.rowid = entries_labels.rowid"
            : "entries_search CROSS JOIN entries e ON e.rowid = entries_search.rowid"
    }

    /// The condition that the words match; nil when there are none.
    func match(inTitlesAndTagsOnly: Bool) -> SQLQueryString? {
        if engine == .postgres {
            // Titles and tags have a vector of their own (migration 20): a match there is a match weighted `AB`.
            guard let tsQuery = query.tsQuery() else { return nil }
            let vector: SQLQueryString = inTitlesAndTagsOnly ? "e.labels_vector" : "e.search_vector"
            return vector + " @@ to_tsquery('myday_search', \(bind: tsQuery))"
        }
        let columns = inTitlesAndTagsOnly ? ["title", "tags"] : ["title", "tags", "body"]
        guard let words = query.fts5Expression(columns: columns) else { return nil }
        let owner = String(userID.lowercased.filter { $0 != "-" })
        let index: SQLQueryString = inTitlesAndTagsOnly ? "entries_labels" : "entries_search"
        return index + " MATCH \(bind: "owner : \"\(owner)\" AND \(words)")"
    }

    /// How many of `counted`'s rows there are, up to `bound`. On PostgreSQL a query's whole words are counted first:
    /// they are a part of its matches, and a GIN index finds them without reading every word a prefix begins (for a
    /// word most entries hold, the longest part of a search). Only when they are fewer than `bound` are the prefixes
    /// counted (PostgreSQL runs the second count only when the `CASE` reaches it).
    func count(_ counted: SQLQueryString, filters: SQLQueryString, bound: Int) -> SQLQueryString {
        let all: SQLQueryString = "(SELECT count(*) FROM (SELECT 1 FROM " + counted + " LIMIT \(literal: bound)) counted)"
        guard engine == .postgres, query.terms.contains(where: { if case .word = $0 { true } else { false } }),
            let whole = query.tsQuery(wholeWords: true)
        else { return all }
        return "CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM entries e WHERE e.search_vector @@ to_tsquery('myday_search', "
            + "\(bind: whole))" + filters + " LIMIT \(literal: bound)) whole) = \(literal: bound) THEN \(literal: bound) ELSE "
            + all + " END"
    }

    /// Best first: title over tags over transcript, more matches first; then newest.
    var rank: SQLQueryString {
        if engine == .postgres, let tsQuery = query.tsQuery() {
            return """
                ts_rank('{0.1, 0.25, 0.5, 1.0}', e.search_vector, to_tsquery('myday_search', \(bind: tsQuery)), 1) DESC, \
                e.created_at DESC, e.id DESC
                """
        }
        return "bm25(entries_search, 0.0, 4.0, 2.0, 1.0), e.created_at DESC, e.id DESC"
    }

    /// A match's rank in titles and tags, the lower the better, as a double on both engines.
    var score: SQLQueryString {
        if engine == .postgres, let tsQuery = query.tsQuery(weights: "AB") {
            return "-ts_rank('{0.1, 0.25, 0.5, 1.0}', e.search_vector, to_tsquery('myday_search', \(bind: tsQuery)), 1)::float8"
        }
        return "bm25(entries_labels, 0.0, 4.0, 2.0)"
    }

    /// The score column's placeholder where there is no match to score.
    var noScore: String { engine == .postgres ? "0::float8" : "0.0" }

    /// The condition that an entry is not among `labels`' matches.
    func notIn(_ labels: SQLQueryString) -> SQLQueryString {
        engine == .postgres
            ? "NOT coalesce(" + labels + ", false)"
            : "e.rowid NOT IN (SELECT rowid FROM entries_labels WHERE " + labels + ")"
    }

    /// An entry's place in arrival order on SQLite (the greater the newer); 0 on PostgreSQL, where the recording time
    /// and the id order the newest.
    var recency: SQLQueryString { engine == .postgres ? "0" : "e.rowid" }

    /// Newest first: by recording time on PostgreSQL; on SQLite by arrival (the index's own order, read without a sort).
    func recent(titlesAndTagsOnly: Bool) -> SQLQueryString {
        if engine == .postgres { return "e.created_at DESC, e.id DESC" }
        return titlesAndTagsOnly ? "entries_labels.rowid DESC" : "entries_search.rowid DESC"
    }
}
