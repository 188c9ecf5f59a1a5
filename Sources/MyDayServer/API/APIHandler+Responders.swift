import Foundation
import MyDayAPI
import MyDayModels

extension APIHandler {
    /// Never reached: `EntryListResponder` answers every `GET /v1/entries` (ADR 0026).
    func listEntries(_ input: Operations.ListEntries.Input) async throws -> Operations.ListEntries.Output {
        throw AnsweredByResponder()
    }

    /// Never reached: `SearchResponder` answers every `GET /v1/search` (ADR 0026).
    func searchEntries(_ input: Operations.SearchEntries.Input) async throws -> Operations.SearchEntries.Output {
        throw AnsweredByResponder()
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

/// A generated route reached although a responder ahead of it answers its operation: a server error.
struct AnsweredByResponder: Error {}
