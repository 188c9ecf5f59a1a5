import Foundation
import MyDayAPI
import MyDayModels

extension APIHandler {
    /// Reached by requests `SearchResponder` leaves to the generated handler (those that accept no JSON).
    func searchEntries(_ input: Operations.SearchEntries.Input) async throws -> Operations.SearchEntries.Output {
        let user = try RequestUser.required()
        let query = input.query
        let parameters = SearchParameters(
            q: query.q, from: query.from, to: query.to, tags: query.tag ?? [], moods: query.mood ?? [],
            kind: query.kind.flatMap { EntryKind(rawValue: $0.rawValue) },
            statuses: (query.status ?? []).compactMap { EntryStatus(rawValue: $0.rawValue) }, tz: query.tz,
            readDates: query.readDates, cursor: query.cursor, limit: query.limit)
        let answer = try await EntrySearching.run(
            parameters, userID: user.id, entries: entries, limits: limits, now: searchClock())
        return .ok(.init(body: .json(Self.schema(answer))))
    }

    /// The answer as the generated types: what `SearchJSON` writes by hand, byte for byte.
    static func schema(_ answer: SearchAnswer) -> Components.Schemas.SearchResults {
        let (words, phrases) = EntrySearching.words(of: answer.query)
        return .init(
            hits: answer.hits.map { hit in
                .init(
                    entry: schema(hit.entry),
                    highlights: hit.highlights.map { field, highlight in
                        .init(
                            field: .init(rawValue: field.rawValue)!, text: highlight.text,
                            matches: highlight.matches.map { .init(start: $0.lowerBound, length: $0.count) })
                    })
            },
            hasMore: answer.hasMore, nextCursor: answer.nextCursor,
            interpreted: .init(
                words: words, phrases: phrases, datePhrase: answer.query.datePhrase,
                from: answer.query.dates?.from.description, to: answer.query.dates?.to.description))
    }
}
