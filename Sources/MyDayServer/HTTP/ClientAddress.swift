import Foundation
import HTTPTypes
import Hummingbird

/// The address a request comes from, for rate limits: the peer, or, behind trusted proxies, the
/// address the nearest of them saw.
enum ClientAddress {
    @TaskLocal static var current = "unknown"
}

/// Sets `ClientAddress.current`. With `trustedProxyHops` n > 0 (`MYDAY_TRUSTED_PROXY_HOPS`), the
/// n-th address from the right of `X-Forwarded-For` is the client: the one the outermost trusted
/// proxy appended. Addresses further left are the client's own say and are ignored.
struct ClientAddressMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let trustedProxyHops: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let address = Self.address(
            peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor],
            trustedProxyHops: trustedProxyHops)
        return try await ClientAddress.$current.withValue(address) { try await next(request, context) }
    }

    static func address(peer: String?, forwardedFor: [String], trustedProxyHops: Int) -> String {
        let peer = peer ?? "unknown"
        guard trustedProxyHops > 0 else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard hops.count >= trustedProxyHops, let address = hops.dropLast(trustedProxyHops - 1).last, !address.isEmpty else {
            return peer
        }
        return String(address.prefix(64))
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
