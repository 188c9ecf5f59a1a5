import Foundation
import Hummingbird
import MyDayModels
import MyDaySearch

/// The one handler of `GET /v1/search`, as `EntryListResponder` is the list's: the checks of `EntrySearching`, the
/// answer written by `SearchJSON` instead of `JSONEncoder` over the generated types. A search asked again before the
/// account changed, its date phrase meaning the same days, is answered from `pages` after one read of the account's
/// row; it still counts against the account's search limit.
struct SearchResponder<Context: RequestContext>: RouterMiddleware {
    let accessTokens: AccessTokens
    let users: UserStore
    let entries: EntryStore
    let limits: RateLimitGuard
    let pages: PageCache<SearchPageKey>
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .get, request.uri.path == "/v1/search" else { return try await next(request, context) }
        let (userID, account) = try await BearerAuthMiddleware.authenticateAccount(
            request.headers[.authorization], accessTokens: accessTokens, users: users)
        try EntryListResponder<Context>.requireJSON(request.headers[.accept])
        let queryString = request.uri.query ?? ""
        let prepared = try await EntrySearching.prepare(
            try Self.parameters(queryString), userID: userID, limits: limits, now: now())
        let key = SearchPageKey(userID: userID, query: queryString, dates: prepared.query.dates)
        if let kept = pages.page(key, changeSeq: account.changeSeq) { return EntryListResponder<Context>.response(kept) }
        let answer = try await EntrySearching.answer(prepared, userID: userID, entries: entries)
        let body = ByteBuffer(bytes: SearchJSON.write(answer))
        pages.keep(body, for: key, changeSeq: account.changeSeq)
        return EntryListResponder<Context>.response(body)
    }

    /// The parameters of a form-encoded query string (`+` is a space); a value of the wrong type is a 400.
    static func parameters(_ query: String) throws -> SearchParameters {
        var parameters = SearchParameters()
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.flatMap({ decode($0) }) else { continue }
            let value = parts.count > 1 ? decode(parts[1]) ?? "" : ""
            switch name {
            case "q": parameters.q = value
            case "from": parameters.from = value
            case "to": parameters.to = value
            case "tag": parameters.tags.append(value)
            case "mood": parameters.moods.append(try number(value, name))
            case "kind":
                guard let kind = EntryKind(rawValue: value) else { throw APIError.badRequest("'kind' must be audio or text.") }
                parameters.kind = kind
            case "status":
                guard let status = EntryStatus(rawValue: value) else {
                    throw APIError.badRequest("'status' must be one of an entry's statuses.")
                }
                parameters.statuses.append(status)
            case "tz": parameters.tz = value
            case "read_dates":
                guard value == "true" || value == "false" else {
                    throw APIError.badRequest("'read_dates' must be true or false.")
                }
                parameters.readDates = value == "true"
            case "cursor": parameters.cursor = value
            case "limit": parameters.limit = try number(value, name)
            default: continue
            }
        }
        guard parameters.tags.count <= 20, parameters.moods.count <= 5, parameters.statuses.count <= 5 else {
            throw APIError.badRequest("At most 20 tags, 5 moods and 5 statuses.")
        }
        return parameters
    }

    /// `+` as a space and `%XX` as its byte; nil when an escape is cut short or the bytes are not UTF-8 (as
    /// Foundation's `removingPercentEncoding` answers, at a fraction of its cost).
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func number(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text) else { throw APIError.badRequest("'\(name)' must be a whole number.") }
        return value
    }
}

/// A search's answer as the API's `SearchResults` schema, written straight from the records: the same bytes as the
/// generated types through `JSONEncoder` (sorted keys; absent optionals left out).
enum SearchJSON {
    static func write(_ answer: SearchAnswer) -> [UInt8] {
        var json = JSONWriter(capacity: 1024 + answer.hits.count * 1200)
        json.raw("{")
        json.key("has_more")
        json.bool(answer.hasMore)
        json.raw(",")
        json.key("hits")
        json.raw("[")
        var first = true
        for hit in answer.hits {
            json.separator(&first)
            json.raw("{")
            json.key("entry")
            EntryJSON.write(hit.entry, to: &json)
            json.raw(",")
            json.key("highlights")
            json.raw("[")
            var firstHighlight = true
            for (field, highlight) in hit.highlights {
                json.separator(&firstHighlight)
                json.raw("{")
                json.key("field")
                json.string(field.rawValue)
                json.raw(",")
                json.key("matches")
                json.raw("[")
                var firstMatch = true
                for match in highlight.matches {
                    json.separator(&firstMatch)
                    json.raw("{")
                    json.key("length")
                    json.int(match.count)
                    json.raw(",")
                    json.key("start")
                    json.int(match.lowerBound)
                    json.raw("}")
                }
                json.raw("],")
                json.key("text")
                json.string(highlight.text)
                json.raw("}")
            }
            json.raw("]}")
        }
        json.raw("],")
        json.key("interpreted")
        writeInterpretation(answer.query, to: &json)
        if let nextCursor = answer.nextCursor {
            json.raw(",")
            json.key("next_cursor")
            json.string(nextCursor)
        }
        json.raw("}")
        return json.bytes
    }

    private static func writeInterpretation(_ query: SearchQuery, to json: inout JSONWriter) {
        let (words, phrases) = EntrySearching.words(of: query)
        json.raw("{")
        if let datePhrase = query.datePhrase {
            json.key("date_phrase")
            json.string(datePhrase)
            json.raw(",")
        }
        if let dates = query.dates {
            json.key("from")
            json.string(dates.from.description)
            json.raw(",")
        }
        json.key("phrases")
        json.raw("[")
        var first = true
        for phrase in phrases {
            json.separator(&first)
            json.strings(phrase)
        }
        json.raw("],")
        if let dates = query.dates {
            json.key("to")
            json.string(dates.to.description)
            json.raw(",")
        }
        json.key("words")
        json.strings(words)
        json.raw("}")
    }
}
