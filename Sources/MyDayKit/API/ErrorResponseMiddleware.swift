import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every error answer into `MyDayClientError.server` with the server's code, message and `Retry-After`.
struct ErrorResponseMiddleware: ClientMiddleware {
    private struct ErrorBody: Decodable {
        struct Detail: Decodable {
            let code: String
            let message: String
        }
        let error: Detail
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var detail: ErrorBody.Detail?
        if let responseBody, let bytes = try? await Data(collecting: responseBody, upTo: 64 * 1024) {
            detail = try? JSONDecoder().decode(ErrorBody.self, from: bytes).error
        }
        throw MyDayClientError.server(
            status: response.status.code, code: detail?.code ?? "http_\(response.status.code)",
            message: detail?.message ?? response.status.reasonPhrase,
            retryAfter: RetryAfter.seconds(response.headerFields[.retryAfter]))
    }
}
