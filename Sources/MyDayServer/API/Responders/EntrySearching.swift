import Foundation
import MyDayModels
import MyDaySearch

/// A search as asked, in plain values: from the generated handler's input, or straight from the query string.
struct SearchParameters: Sendable, Equatable {
    var q: String?
    var from: String?
    var to: String?
    var tags: [String] = []
    var moods: [Int] = []
    var kind: EntryKind?
    var statuses: [EntryStatus] = []
    var tz: String?
    var readDates: Bool?
    var cursor: String?
    var limit: Int?
}

/// What a search found: a page of entries with the fields their words matched in, and how the words were read.
struct SearchAnswer: Sendable {
    enum Field: String, Sendable { case title, tags, text }

    struct Hit: Sendable {
        let entry: EntryRecord
        let highlights: [(field: Field, highlight: Highlight)]
    }

    let hits: [Hit]
    let hasMore: Bool
    let nextCursor: String?
    let query: SearchQuery
}

/// A search checked and its words read, ready for the store.
struct PreparedSearch: Sendable {
    let search: EntrySearch
    let query: SearchQuery
    let cursor: SearchCursor?
    let limit: Int
}

/// Runs `GET /v1/search`: checks the parameters and reads the words (`prepare`), then asks the store and marks the
/// matches (`answer`).
enum EntrySearching {
    /// Counts the search against the account's limit, checks its parameters and reads its words; nothing is read from
    /// the store.
    static func prepare(
        _ parameters: SearchParameters, userID: UUID, limits: RateLimitGuard, now: Date
    ) async throws -> PreparedSearch {
        try await limits.search(user: userID.lowercased)
        let limit = parameters.limit ?? 20
        guard (1...100).contains(limit) else { throw APIError.badRequest("'limit' must be 1 to 100.") }
        let text = parameters.q ?? ""
        guard text.unicodeScalars.count <= 200 else { throw APIError.badRequest("A search is at most 200 characters.") }
        guard parameters.tags.allSatisfy({ (1...50).contains($0.unicodeScalars.count) }) else {
            throw APIError.badRequest("Each 'tag' is 1 to 50 characters.")
        }
        let tags = parameters.tags.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard !tags.contains(where: \.isEmpty) else { throw APIError.unprocessable("A 'tag' must not be spaces alone.") }
        try Validation.printable(text, field: "q")
        for tag in tags { try Validation.printable(tag, field: "tag") }
        guard parameters.moods.allSatisfy((1...5).contains) else { throw APIError.badRequest("'mood' must be 1 to 5.") }
        let timeZone = try parameters.tz.map(Validation.timeZone) ?? .gmt
        let dates = parameters.readDates == false ? nil : DatePhrases(now: now, timeZone: timeZone)
        let query = SearchQuery(parsing: text, dates: dates)
        let search = EntrySearch(
            query: query, from: try day(parameters.from, "from"), to: try day(parameters.to, "to"),
            tags: tags, moods: parameters.moods,
            kind: parameters.kind, statuses: parameters.statuses)
        if let from = search.from, let to = search.to, from > to {
            throw APIError.unprocessable("'from' must not be after 'to'.")
        }
        let cursor = try parameters.cursor.map { text in
            guard let cursor = SearchCursor(text) else {
                throw APIError.unprocessable("'cursor' must be the next_cursor of the previous page.")
            }
            return cursor
        }
        return PreparedSearch(search: search, query: query, cursor: cursor, limit: limit)
    }

    /// The page of matches the prepared search asks for.
    static func answer(_ prepared: PreparedSearch, userID: UUID, entries: EntryStore) async throws -> SearchAnswer {
        let (search, query, cursor, limit) = (prepared.search, prepared.query, prepared.cursor, prepared.limit)
        let asOf = cursor?.asOf ?? StoredTime.now()
        let offset = cursor?.offset ?? 0
        let page: (entries: [EntryRecord], hasMore: Bool)
        do {
            page = try await entries.search(search, userID: userID, asOf: asOf, offset: offset, limit: limit)
        } catch is ReadTookTooLong {
            throw APIError.searchTooCostly
        }
        let highlighter = Highlighter(query)
        return SearchAnswer(
            hits: page.entries.map { SearchAnswer.Hit(entry: $0, highlights: highlights(of: $0, highlighter)) },
            hasMore: page.hasMore, nextCursor: page.hasMore ? SearchCursor(offset: offset + limit, asOf: asOf).text : nil,
            query: query)
    }

    /// The fields of `entry` the query matched in, in the order title, tags, text; the transcript as a snippet.
    static func highlights(of entry: EntryRecord, _ highlighter: Highlighter) -> [(
        field: SearchAnswer.Field, highlight: Highlight
    )] {
        var found: [(field: SearchAnswer.Field, highlight: Highlight)] = []
        if let title = entry.title.flatMap(highlighter.marked) { found.append((.title, title)) }
        if !entry.tags.isEmpty, let tags = highlighter.marked(entry.tags.joined(separator: ", ")) { found.append((.tags, tags)) }
        if let text = entry.transcriptClean.flatMap({ highlighter.snippet(of: $0) }) { found.append((.text, text)) }
        return found
    }

    /// The query's words and phrases, apart.
    static func words(of query: SearchQuery) -> (words: [String], phrases: [[String]]) {
        var words: [String] = []
        var phrases: [[String]] = []
        for term in query.terms {
            switch term {
            case .word(let word): words.append(word)
            case .phrase(let phrase): phrases.append(phrase)
            }
        }
        return (words, phrases)
    }

    private static func day(_ text: String?, _ name: String) throws -> LocalDay? {
        guard let text else { return nil }
        guard let day = LocalDay(iso: text) else {
            throw APIError.unprocessable("'\(name)' must be a date such as 2026-05-01.")
        }
        return day
    }
}

/// Where the next page of a search starts, and the moment its first page was answered (entries added later are
/// left out of its pages). Opaque to clients: `v1.<offset>.<ms>`, base64url.
struct SearchCursor: Equatable {
    let offset: Int
    let asOf: Int

    init(offset: Int, asOf: Int) {
        self.offset = offset
        self.asOf = asOf
    }

    init?(_ text: String) {
        guard text.utf8.count <= 100, let data = Data(base64URLEncoded: text), let plain = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = plain.split(separator: ".")
        guard parts.count == 3, parts[0] == "v1", let offset = Int(parts[1]), let asOf = Int(parts[2]),
            (0...100_000).contains(offset), asOf >= 0
        else { return nil }
        self.init(offset: offset, asOf: asOf)
    }

    var text: String { Data("v1.\(offset).\(asOf)".utf8).base64URLEncodedString() }
}

extension APIError {
    static let searchTooCostly = APIError(
        status: .unprocessableContent, code: "search_too_costly",
        message: "This search would take the server too long; use longer or more specific words, or a date range.")
}
