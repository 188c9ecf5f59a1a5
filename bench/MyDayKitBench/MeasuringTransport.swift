import Foundation
import HTTPTypes
import MyDayKit
import OpenAPIRuntime

/// The platform transport, counting requests and response body bytes.
final class MeasuringTransport: ClientTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (requests: 0, bytes: 0)
    private let base = DefaultTransport.make()

    var requests: Int { lock.withLock { counts.requests } }
    var bytes: Int { lock.withLock { counts.bytes } }
    func reset() { lock.withLock { counts = (0, 0) } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        let (response, responseBody) = try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        var data = Data()
        if let responseBody { data = try await Data(collecting: responseBody, upTo: 64 * 1024 * 1024) }
        lock.withLock {
            counts.requests += 1
            counts.bytes += data.count
        }
        return (response, responseBody == nil ? nil : HTTPBody(data))
    }
}
