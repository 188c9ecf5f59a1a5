import AsyncHTTPClient
import Foundation
import NIOCore

/// One POST to an OpenAI-compatible server: the base URL joined to the path, the bearer key, a time
/// limit and a bounded answer. Shared by speech-to-text and cleanup.
package enum OpenAICompatible {
    package enum Failure: Error, CustomStringConvertible {
        case unreachable(String)
        case unavailable(Int)

        package var description: String {
            switch self {
            case .unreachable(let detail): "the model server did not answer: \(detail)"
            case .unavailable(let status): "the model server answered HTTP \(status)"
            }
        }
    }

    /// Sends `body` to `path` under `baseURL` and answers the status code and the body; throws
    /// `Failure.unreachable` when no answer came within `timeout`.
    package static func post(
        baseURL: String, path: String, apiKey: String?, contentType: String, body: HTTPClientRequest.Body, timeout: Duration,
        maxResponseBytes: Int
    ) async throws -> (status: UInt, body: ByteBuffer) {
        let response = try await send(
            baseURL: baseURL, path: path, apiKey: apiKey, contentType: contentType, body: body, timeout: timeout)
        return (response.status.code, try await response.body.collect(upTo: maxResponseBytes))
    }

    /// Sends `body` to `path` under `baseURL` and answers as soon as the response's head has come; its body is read
    /// by the caller (within `timeout` of the start). Throws `Failure.unreachable` when no answer came in time.
    package static func send(
        baseURL: String, path: String, apiKey: String?, contentType: String, body: HTTPClientRequest.Body, timeout: Duration
    ) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: (baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL) + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        if let apiKey { request.headers.add(name: "Authorization", value: "Bearer \(apiKey)") }
        request.body = body
        do {
            return try await HTTPClient.modelServers.execute(request, timeout: .milliseconds(Int64(timeout / .milliseconds(1))))
        } catch {
            throw Failure.unreachable(String(describing: error))
        }
    }
}

extension HTTPClient {
    /// The client for model servers. A transcription answers only once the whole recording is done, so there is no
    /// limit on a quiet connection (the shared client gives up after 90 s without a byte); each request's own
    /// deadline bounds it instead.
    static let modelServers: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
