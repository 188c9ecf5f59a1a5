import Foundation
import Hummingbird
import MyDayModels
import NIOCore

/// Reads API request bodies (JSON) only as far as the sender has earned: 64 KiB without a genuine access token
/// (sign-in forms are small), 1 MiB with one, 8 MiB for an authenticated `complete` (a long recording's timed words);
/// bodies over 64 KiB are read a few at a time. So nobody can make the server buffer megabytes before it knows who
/// they are. It also refuses `null` anywhere in a JSON body: no field of the API takes it, and the decoder would
/// read it as "absent". Only the signed blob routes stream larger, non-JSON bodies.
struct JSONBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let accessTokens: AccessTokens
    /// How long a body may take to arrive whole.
    var timeLimit: Duration = .seconds(60)
    var anonymousMaxBytes = 64 * 1024
    var maxBytes = 1024 * 1024
    var transcriptMaxBytes = 8 * 1024 * 1024
    var largeBodies = BodyReadingSlots(total: 4, perAccount: 2, waitLimit: .seconds(10))
    /// The paths anyone may send a body to; any other answers 401 to an unauthenticated body over the small limit.
    static var publicPaths: Set<String> {
        [
            "/v1/auth/email/register", "/v1/auth/email/login", "/v1/auth/apple", "/v1/auth/google", "/v1/auth/refresh",
            "/v1/auth/logout", "/v1/config", "/v1/auth/password/forgot", "/v1/auth/password/reset", "/v1/auth/email/verify",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let path = request.uri.path
        guard !path.hasPrefix("/v1/blobs/") else { return try await next(request, context) }
        // No Content-Length and no Transfer-Encoding: HTTP/1.1 says there is no body (most GETs), so nothing to read.
        guard request.headers[.contentLength] != nil || request.headers[.transferEncoding] != nil else {
            return try await next(request, context)
        }
        let account = await genuineAccount(request)
        let authenticated = account != nil
        let limit =
            !authenticated
            ? anonymousMaxBytes
            : path.hasPrefix("/v1/entries/") && path.hasSuffix("/complete") ? transcriptMaxBytes : maxBytes
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit { throw refusal(path: path, authenticated: authenticated, limit: limit) }
        var request = request
        let body: ByteBuffer
        do {
            if let account, limit > anonymousMaxBytes && (declared ?? limit) > anonymousMaxBytes {
                try await largeBodies.acquire(for: account)
                do {
                    body = try await collect(request.body, upTo: limit)
                    await largeBodies.release(for: account)
                } catch {
                    await largeBodies.release(for: account)
                    throw error
                }
            } else {
                body = try await collect(request.body, upTo: limit)
            }
        } catch is NIOTooManyBytesError {
            throw refusal(path: path, authenticated: authenticated, limit: limit)
        } catch BodyReadingSlots.Refusal.accountBusy {
            throw APIError(
                status: .tooManyRequests, code: "rate_limited",
                message: "Your other large requests are still arriving; send this one when they are done.",
                retryAfterSeconds: 5)
        } catch BodyReadingSlots.Refusal.serverBusy {
            throw APIError(
                status: .serviceUnavailable, code: "busy", message: "The server is reading many large requests; try again.",
                retryAfterSeconds: 5)
        } catch is TimeLimitExceeded {
            throw APIError(
                status: .requestTimeout, code: "request_timeout",
                message: "The request body did not arrive in time; send it again.")
        }
        request.body = .init(buffer: body)
        if body.readableBytes > 0,
            let json = try? JSONSerialization.jsonObject(with: Data(buffer: body), options: [.fragmentsAllowed]),
            let path = Self.pathOfNull(in: json)
        {
            throw APIError.badRequest("\(path) must not be null; leave the field out instead.")
        }
        return try await next(request, context)
    }

    /// The account of a signed, unexpired access token (whether its user still exists is the operation's check).
    private func genuineAccount(_ request: Request) async -> String? {
        guard let token = BearerCredential.token(in: request.headers[.authorization]) else { return nil }
        return await accessTokens.verify(String(token))?.sub.value
    }

    /// The whole body, within `timeLimit`.
    private func collect(_ body: RequestBody, upTo limit: Int) async throws -> ByteBuffer {
        try await withTimeLimit(timeLimit) { try await body.collect(upTo: limit) }
    }

    private func refusal(path: String, authenticated: Bool, limit: Int) -> APIError {
        authenticated || Self.publicPaths.contains(path) || path.hasPrefix(RefreshCookie.webSessionPath + "/")
            ? APIError.tooLarge(limit: limit) : APIError.unauthorized
    }

    /// Where the first `null` is, as `'a.b[2]'`; nil when there is none.
    static func pathOfNull(in value: Any, at path: String = "") -> String? {
        switch value {
        case is NSNull:
            return path.isEmpty ? "The body" : "'\(path)'"
        case let object as [String: Any]:
            for (key, child) in object.sorted(by: { $0.key < $1.key }) {
                if let found = pathOfNull(in: child, at: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
            return nil
        case let array as [Any]:
            for (index, child) in array.enumerated() {
                if let found = pathOfNull(in: child, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
