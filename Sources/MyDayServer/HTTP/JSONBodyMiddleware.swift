import Foundation
import Hummingbird
import NIOCore

/// Reads API request bodies (JSON) only as far as the sender has earned: 64 KiB without a genuine access token
/// (sign-in forms are small), 1 MiB with one, 8 MiB for an authenticated `complete` (a long recording's timed words);
/// bodies over 64 KiB are read a few at a time. So nobody can make the server buffer megabytes before it knows who
/// they are. It also refuses `null` anywhere in a JSON body: no field of the API takes it, and the decoder would
/// read it as "absent". Only the signed blob routes stream larger, non-JSON bodies.
struct JSONBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let accessTokens: AccessTokens
    var anonymousMaxBytes = 64 * 1024
    var maxBytes = 1024 * 1024
    var transcriptMaxBytes = 8 * 1024 * 1024
    let largeBodies = BodyReadingSlots(4)
    /// The paths anyone may send a body to; any other answers 401 to an unauthenticated body over the small limit.
    static var publicPaths: Set<String> {
        [
            "/v1/auth/email/register", "/v1/auth/email/login", "/v1/auth/apple", "/v1/auth/google", "/v1/auth/refresh",
            "/v1/auth/logout", "/v1/config",
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
        let authenticated = await hasGenuineToken(request)
        let limit =
            !authenticated
            ? anonymousMaxBytes
            : path.hasPrefix("/v1/entries/") && path.hasSuffix("/complete") ? transcriptMaxBytes : maxBytes
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit { throw refusal(path: path, authenticated: authenticated, limit: limit) }
        var request = request
        let body: ByteBuffer
        do {
            if limit > anonymousMaxBytes && (declared ?? limit) > anonymousMaxBytes {
                await largeBodies.acquire()
                do {
                    body = try await request.collectBody(upTo: limit)
                    await largeBodies.release()
                } catch {
                    await largeBodies.release()
                    throw error
                }
            } else {
                body = try await request.collectBody(upTo: limit)
            }
        } catch is NIOTooManyBytesError {
            throw refusal(path: path, authenticated: authenticated, limit: limit)
        }
        if body.readableBytes > 0,
            let json = try? JSONSerialization.jsonObject(with: Data(buffer: body), options: [.fragmentsAllowed]),
            let path = Self.pathOfNull(in: json)
        {
            throw APIError.badRequest("\(path) must not be null; leave the field out instead.")
        }
        return try await next(request, context)
    }

    /// A signed, unexpired access token (whether its user still exists is the operation's check).
    private func hasGenuineToken(_ request: Request) async -> Bool {
        guard let token = BearerCredential.token(in: request.headers[.authorization]) else { return false }
        return await accessTokens.verify(String(token)) != nil
    }

    private func refusal(path: String, authenticated: Bool, limit: Int) -> APIError {
        authenticated || Self.publicPaths.contains(path) || path.hasPrefix(WebSessionRoutes<Context>.cookiePath + "/")
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
