import Foundation
import Hummingbird
import MyDayAPI

/// Answers `GET /v1/entries` without `q` (listing and delta sync, the request clients make most) before the
/// generated handler would: the same checks and the same bytes, written by `EntryJSON` instead of `JSONEncoder`
/// through the generated types, which took a third of the time of every listing. A page asked again before the
/// account changed is answered from `pages` after one read of the account's row. Anything else passes through.
struct EntryListResponder<Context: RequestContext>: RouterMiddleware {
    let accessTokens: AccessTokens
    let users: UserStore
    let entries: EntryStore
    let pages: EntryPageCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let parameters = request.uri.queryParameters
        guard request.method == .get, request.uri.path == "/v1/entries", Self.acceptsJSON(request.headers[.accept])
        else { return try await next(request, context) }
        let (userID, account) = try await BearerAuthMiddleware.authenticateAccount(
            request.headers[.authorization], accessTokens: accessTokens, users: users)
        let limit =
            try parameters["limit"].map { text in
                guard let value = Int(text) else { throw APIError.badRequest("'limit' must be 1 to 500.") }
                return value
            } ?? 100
        guard (1...500).contains(limit) else { throw APIError.badRequest("'limit' must be 1 to 500.") }
        let cursor = try APIHandler.cursor(parameters["since"].map(String.init))
        let key = EntryPageCache.Key(userID: userID, cursor: cursor, limit: limit)
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

    /// Requests that name other types than JSON go to the generated handler, which refuses them as it always has.
    static func acceptsJSON(_ accept: String?) -> Bool {
        guard let accept else { return true }
        return accept.contains("application/json") || accept.contains("*/*") || accept.contains("application/*")
    }
}
