import HTTPTypes
import OpenAPIRuntime

/// Hands operations no body when the request has none (no `Content-Length` or 0, and no
/// `Transfer-Encoding`): the Hummingbird transport always passes one, so an optional JSON body
/// (`DELETE /v1/me`) would otherwise be read as empty JSON and refused.
struct AbsentBodyMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let length = request.headerFields[.contentLength]
        let hasBody = request.headerFields[.transferEncoding] != nil || (length != nil && length != "0")
        return try await next(request, hasBody ? body : nil, metadata)
    }
}
