import HTTPTypes
import OpenAPIRuntime

/// Hands operations no body when the request has none: no `Content-Length` (or 0) and no
/// `Transfer-Encoding`, or a chunked body that turns out empty. The Hummingbird transport always
/// passes one, so an optional JSON body (`DELETE /v1/me`, `POST …/complete`) would otherwise be
/// read as empty JSON and refused.
struct AbsentBodyMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let length = request.headerFields[.contentLength]
        guard let body, length != "0" else { return try await next(request, nil, metadata) }
        if length != nil { return try await next(request, body, metadata) }
        guard request.headerFields[.transferEncoding] != nil else { return try await next(request, nil, metadata) }
        return try await next(request, try await Self.nilWhenEmpty(body), metadata)
    }

    /// Reads the first chunk of a body of unknown length: nil when there is none, else the same bytes again.
    private static func nilWhenEmpty(_ body: HTTPBody) async throws -> HTTPBody? {
        var chunks = body.makeAsyncIterator()
        var first = try await chunks.next()
        while let chunk = first, chunk.isEmpty { first = try await chunks.next() }
        guard let first else { return nil }
        let rest = UncheckedIterator(chunks)
        let stream = AsyncThrowingStream<HTTPBody.ByteChunk, any Error> { continuation in
            continuation.yield(first)
            let task = Task {
                do {
                    while let chunk = try await rest.next() { continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return HTTPBody(stream, length: .unknown, iterationBehavior: .single)
    }
}

/// Carries a body's iterator into the task that drains it; only that task uses it from then on.
private final class UncheckedIterator: @unchecked Sendable {
    private var iterator: HTTPBody.AsyncIterator
    init(_ iterator: HTTPBody.AsyncIterator) { self.iterator = iterator }
    func next() async throws -> HTTPBody.ByteChunk? { try await iterator.next() }
}
