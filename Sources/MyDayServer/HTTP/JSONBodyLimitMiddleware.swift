import Hummingbird
import NIOCore

/// Caps the bodies of API requests (JSON) at `maxBytes`; only the signed blob routes stream larger bodies.
struct JSONBodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    var maxBytes = 1024 * 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard !request.uri.path.hasPrefix("/v1/blobs/") else { return try await next(request, context) }
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBytes {
            throw APIError.tooLarge(limit: maxBytes)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(limit: maxBytes)
        }
        return try await next(request, context)
    }
}
