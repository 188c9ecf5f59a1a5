import Hummingbird

/// The scheme and authority clients reach this server at, used to make absolute signed URLs.
enum RequestOrigin {
    @TaskLocal static var current = "http://localhost"
}

/// Sets `RequestOrigin.current`: the configured public URL, or the `Host` the client used.
struct RequestOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let publicURL: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let origin = PublicURL.origin(publicURL) ?? "http://\(Self.validHost(request.head.authority) ?? "localhost")"
        return try await RequestOrigin.$current.withValue(origin) { try await next(request, context) }
    }

    private static func validHost(_ host: String?) -> String? {
        guard let host, !host.isEmpty, host.count <= 255,
            host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) })
        else { return nil }
        return host
    }
}

/// `MYDAY_PUBLIC_URL`, the one origin mailed links are built on.
enum PublicURL {
    /// The configured public URL without a trailing slash; nil when none is set.
    static func origin(_ publicURL: String?) -> String? {
        publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }
}
