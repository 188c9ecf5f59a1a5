import Foundation
import Hummingbird
import MyDayAPI

/// The one handler of `GET /v1/entries` (listing and delta sync, the request clients make most), ahead of the generated
/// routes: the checks and bytes of `openapi.yaml`, written by `EntryJSON` instead of `JSONEncoder` through the
/// generated types, which took a third of the time of every listing. A page asked again before the account changed is
/// answered from `pages` after one read of the account's row. Other requests pass through.
struct EntryListResponder<Context: RequestContext>: RouterMiddleware {
    let accessTokens: AccessTokens
    let users: UserStore
    let entries: EntryStore
    let pages: PageCache<EntryPageKey>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let parameters = request.uri.queryParameters
        guard request.method == .get, request.uri.path == "/v1/entries" else { return try await next(request, context) }
        let (userID, account) = try await BearerAuthMiddleware.authenticateAccount(
            request.headers[.authorization], accessTokens: accessTokens, users: users)
        try Self.requireJSON(request.headers[.accept])
        let limit =
            try parameters["limit"].map { text in
                guard let value = Int(text) else { throw APIError.badRequest("'limit' must be 1 to 500.") }
                return value
            } ?? 100
        guard (1...500).contains(limit) else { throw APIError.badRequest("'limit' must be 1 to 500.") }
        let cursor = try Self.cursor(parameters["since"].map(String.init))
        let key = EntryPageKey(userID: userID, cursor: cursor, limit: limit)
        if let kept = pages.page(key, changeSeq: account.changeSeq) { return Self.response(kept) }
        let page = try await entries.changes(userID: userID, after: cursor, limit: limit)
        var json = JSONWriter(capacity: 256 + page.entries.count * 700)
        json.raw("{")
        json.key("deleted_ids")
        json.raw("[")
        var first = true
        for entry in page.entries where entry.deletedAt != nil {
            json.separator(&first)
            json.string(entry.id.lowercased)
        }
        json.raw("],")
        json.key("entries")
        json.raw("[")
        first = true
        for entry in page.entries where entry.deletedAt == nil {
            json.separator(&first)
            EntryJSON.write(entry, to: &json)
        }
        json.raw("],")
        json.key("has_more")
        json.bool(page.hasMore)
        json.raw(",")
        json.key("next_cursor")
        json.string(String(page.entries.last?.changeSeq ?? cursor))
        json.raw("}")
        let body = ByteBuffer(bytes: json.bytes)
        pages.keep(body, for: key, changeSeq: account.changeSeq)
        return Self.response(body)
    }

    static func response(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
    }

    /// Refuses a request that accepts no JSON (406), after the account check, as every generated handler does.
    static func requireJSON(_ accept: String?) throws {
        guard let accept, !accept.contains("application/json"), !accept.contains("*/*"), !accept.contains("application/*")
        else { return }
        throw APIError(
            status: .notAcceptable, code: "http_406",
            message: "Response content type not acceptable, content type: application/json, accepted: \(accept)")
    }

    /// A delta sync's `since`: a change sequence from an earlier answer; 0 when absent.
    static func cursor(_ since: String?) throws -> Int {
        guard let since else { return 0 }
        guard (1...18).contains(since.count), since.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(since) else {
            throw APIError.badRequest("'since' must be a cursor from an earlier answer.")
        }
        return value
    }
}
