import Foundation
import HTTPTypes
import Hummingbird
import MyDayAPI

/// `/v1/auth/web/*`: the web app's session, with the refresh token in an HttpOnly cookie (ADR 0015).
///
/// Each route calls the JSON operation it mirrors (same validation, rate limits and rotation), then
/// moves the refresh token from the body into the session cookie (`RefreshCookie`).
struct WebSessionRoutes<Context: RequestContext>: Sendable {

    let handler: APIHandler
    let refreshTokenLifetime: Duration

    func register(on router: Router<Context>) {
        router.post("/v1/auth/web/register") { request, context in
            try Self.checkWebRequest(request)
            let credentials: Components.Schemas.EmailCredentials = try await Self.decode(request, context: context)
            let output = try await handler.registerWithEmail(.init(body: .json(credentials)))
            guard case .created(let created) = output, case .json(let session) = created.body else {
                throw APIError.badRequest("The account could not be created.")
            }
            return try webSession(session, status: .created)
        }
        router.post("/v1/auth/web/login") { request, context in
            try Self.checkWebRequest(request)
            let credentials: Components.Schemas.EmailCredentials = try await Self.decode(request, context: context)
            let output = try await handler.loginWithEmail(.init(body: .json(credentials)))
            guard case .ok(let ok) = output, case .json(let session) = ok.body else { throw APIError.wrongCredentials }
            return try webSession(session, status: .ok)
        }
        router.post("/v1/auth/web/apple") { request, context in
            try Self.checkWebRequest(request)
            let body: Components.Schemas.AppleSignIn = try await Self.decode(request, context: context)
            // Apple's script on the page was told to return to the page's origin; Apple wants that URI with the code.
            let output = try await AppleSignInRedirect.$current.withValue(
                (request.headers[.origin] ?? RequestOrigin.current) + "/"
            ) {
                try await handler.signInWithApple(.init(body: .json(body)))
            }
            switch output {
            case .ok(let ok): if case .json(let session) = ok.body { return try webSession(session, status: .ok) }
            case .created(let created):
                if case .json(let session) = created.body { return try webSession(session, status: .created) }
            default: break
            }
            throw APIError.unauthorized
        }
        router.post("/v1/auth/web/google") { request, context in
            try Self.checkWebRequest(request)
            let body: Components.Schemas.GoogleSignIn = try await Self.decode(request, context: context)
            switch try await handler.signInWithGoogle(.init(body: .json(body))) {
            case .ok(let ok): if case .json(let session) = ok.body { return try webSession(session, status: .ok) }
            case .created(let created):
                if case .json(let session) = created.body { return try webSession(session, status: .created) }
            default: break
            }
            throw APIError.unauthorized
        }
        router.post("/v1/auth/web/password/reset") { request, context in
            try Self.checkWebRequest(request)
            let body: Components.Schemas.PasswordReset = try await Self.decode(request, context: context)
            let output = try await handler.resetPassword(.init(body: .json(body)))
            guard case .ok(let ok) = output, case .json(let session) = ok.body else { throw APIError.linkExpired }
            return try webSession(session, status: .ok)
        }
        router.post("/v1/auth/web/refresh") { request, _ in
            try Self.checkWebRequest(request)
            // Over plain HTTP another cookie of the same name (planted by a neighbouring site, or left with another
            // path) may come first: each is tried, and the session goes on with the one that is alive.
            var refusal = APIError.unauthorized
            for token in RefreshCookie.current.values(in: request) {
                do {
                    let output = try await handler.refreshSession(.init(body: .json(.init(refreshToken: token))))
                    guard case .ok(let ok) = output, case .json(let session) = ok.body else { throw APIError.unauthorized }
                    return try webSession(session, status: .ok)
                } catch let error as APIError where error.status == .unauthorized {
                    refusal = error
                }
            }
            // No cookie is alive (or none came): this server's is cleared, so the page shows the sign-in screen instead
            // of retrying it.
            var response = refusal.response()
            response.headers.append(contentsOf: RefreshCookie.current.cleared)
            return response
        }
        router.post("/v1/auth/web/logout") { request, _ in
            try Self.checkWebRequest(request)
            for token in RefreshCookie.current.values(in: request) {
                _ = try await handler.logout(.init(body: .json(.init(refreshToken: token))))
            }
            return Response(status: .noContent, headers: RefreshCookie.current.cleared)
        }
    }

    /// The header a form cannot send, and an `Origin` (when present) that is this server's own.
    static func checkWebRequest(_ request: Request) throws {
        guard request.headers[.xMyDayWeb] == "1" else {
            throw APIError.forbidden("Web session requests need the header X-MyDay-Web: 1.")
        }
        if let origin = request.headers[.origin], Self.normalized(origin) != Self.normalized(RequestOrigin.current) {
            throw APIError.forbidden("Requests from other sites are refused.")
        }
    }

    /// `scheme://host:port` in lower case with the scheme's default port spelled out, or nil.
    static func normalized(_ origin: String) -> String? {
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return nil
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// The JSON body as the operation it mirrors takes it (unknown fields are refused there too).
    private static func decode<Body: Decodable>(_ request: Request, context: Context) async throws -> Body {
        let body = try await request.body.collect(upTo: 64 * 1024)
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer: body))
        } catch {
            throw APIError.badRequest("The body is not the JSON this endpoint takes.")
        }
    }

    private func webSession(_ session: Components.Schemas.Session, status: HTTPResponse.Status) throws -> Response {
        let body = WebSessionBody(
            accessToken: session.accessToken, tokenType: "Bearer", expiresIn: session.expiresIn, user: session.user)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try RFC3339DateTranscoder().encode(date))
        }
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: RefreshCookie.current.set(session.refreshToken, maxAge: Int(refreshTokenLifetime.seconds)))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(body))))
    }
}

/// `WebSession` of openapi.yaml: a session without its refresh token, which travels in the cookie.
private struct WebSessionBody: Encodable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Int
    let user: Components.Schemas.User

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case user
    }
}

extension HTTPField.Name {
    static let xMyDayWeb = HTTPField.Name("X-MyDay-Web")!
}
