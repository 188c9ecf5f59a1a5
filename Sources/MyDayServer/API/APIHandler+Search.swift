import Foundation
import MyDayAPI
import MyDayModels
import MyDaySearch

extension APIHandler {
    func searchEntries(_ input: Operations.SearchEntries.Input) async throws -> Operations.SearchEntries.Output {
        let user = try RequestUser.required()
        let parameters = input.query
        let limit = parameters.limit ?? 20
        guard (1...100).contains(limit) else { throw APIError.badRequest("'limit' must be 1 to 100.") }
        let text = parameters.q ?? ""
        guard text.count <= 200 else { throw APIError.badRequest("A search is at most 200 characters.") }
        let timeZone = try parameters.tz.map(Validation.timeZone) ?? .gmt
        let dates = parameters.readDates == false ? nil : DatePhrases(now: searchClock(), timeZone: timeZone)
        let query = SearchQuery(parsing: text, dates: dates)
        let search = EntrySearch(
            query: query, from: try Self.day(parameters.from, "from"), to: try Self.day(parameters.to, "to"),
            tags: (parameters.tag ?? []).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
            moods: parameters.mood ?? [], kind: parameters.kind.flatMap { EntryKind(rawValue: $0.rawValue) },
            statuses: (parameters.status ?? []).compactMap { EntryStatus(rawValue: $0.rawValue) })
        if let from = search.from, let to = search.to, from > to {
            throw APIError.unprocessable("'from' must not be after 'to'.")
        }
        let cursor = try parameters.cursor.map { text in
            guard let cursor = SearchCursor(text) else {
                throw APIError.unprocessable("'cursor' must be the next_cursor of the previous page.")
            }
            return cursor
        }
        let asOf = cursor?.asOf ?? StoredTime.now()
        let offset = cursor?.offset ?? 0
        let page = try await entries.search(search, userID: user.id, asOf: asOf, offset: offset, limit: limit)
        let highlighter = Highlighter(query)
        return .ok(
            .init(
                body: .json(
                    .init(
                        hits: page.entries.map { entry in
                            .init(entry: Self.schema(entry), highlights: Self.highlights(of: entry, highlighter))
                        },
                        hasMore: page.hasMore,
                        nextCursor: page.hasMore ? SearchCursor(offset: offset + limit, asOf: asOf).text : nil,
                        interpreted: Self.interpretation(query)))))
    }

    /// The fields of `entry` the query matched in, the transcript as a snippet.
    static func highlights(of entry: EntryRecord, _ highlighter: Highlighter) -> [Components.Schemas.SearchHighlight] {
        var highlights: [Components.Schemas.SearchHighlight] = []
        func add(_ field: Components.Schemas.SearchHighlight.FieldPayload, _ highlight: Highlight?) {
            guard let highlight else { return }
            highlights.append(
                .init(
                    field: field, text: highlight.text,
                    matches: highlight.matches.map { .init(start: $0.lowerBound, length: $0.count) }))
        }
        add(.title, entry.title.flatMap(highlighter.marked))
        add(.tags, entry.tags.isEmpty ? nil : highlighter.marked(entry.tags.joined(separator: ", ")))
        add(.text, entry.transcriptClean.flatMap { highlighter.snippet(of: $0) })
        return highlights
    }

    static func interpretation(_ query: SearchQuery) -> Components.Schemas.SearchInterpretation {
        var words: [String] = []
        var phrases: [[String]] = []
        for term in query.terms {
            switch term {
            case .word(let word): words.append(word)
            case .phrase(let phrase): phrases.append(phrase)
            }
        }
        return .init(
            words: words, phrases: phrases, datePhrase: query.datePhrase, from: query.dates?.from.description,
            to: query.dates?.to.description)
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
        guard let data = Data(base64URLEncoded: text), let plain = String(data: data, encoding: .utf8) else { return nil }
        let parts = plain.split(separator: ".")
        guard parts.count == 3, parts[0] == "v1", let offset = Int(parts[1]), let asOf = Int(parts[2]),
            (0...100_000).contains(offset), asOf >= 0
        else { return nil }
        self.init(offset: offset, asOf: asOf)
    }

    var text: String { Data("v1.\(offset).\(asOf)".utf8).base64URLEncodedString() }
}
