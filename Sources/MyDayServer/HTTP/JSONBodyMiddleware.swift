import Foundation
import Hummingbird
import NIOCore

/// Caps the bodies of API requests (JSON) at `maxBytes` (`transcriptMaxBytes` for `complete`, which may
/// carry a long recording's timed words), and refuses `null` anywhere in a JSON body: no field of the API
/// takes it, and the decoder would read it as "absent". Only the signed blob routes stream larger,
/// non-JSON bodies.
struct JSONBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    var maxBytes = 1024 * 1024
    var transcriptMaxBytes = 8 * 1024 * 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let path = request.uri.path
        guard !path.hasPrefix("/v1/blobs/") else { return try await next(request, context) }
        let maxBytes = path.hasPrefix("/v1/entries/") && path.hasSuffix("/complete") ? transcriptMaxBytes : maxBytes
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBytes {
            throw APIError.tooLarge(limit: maxBytes)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(limit: maxBytes)
        }
        if body.readableBytes > 0,
            let json = try? JSONSerialization.jsonObject(with: Data(buffer: body), options: [.fragmentsAllowed]),
            let path = Self.pathOfNull(in: json)
        {
            throw APIError.badRequest("\(path) must not be null; leave the field out instead.")
        }
        return try await next(request, context)
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
