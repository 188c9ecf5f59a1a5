import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds the access token to every operation that needs one, and retries once with a fresh token after a 401.
struct BearerTokenMiddleware: ClientMiddleware {
    /// Operations that work without a session (`security: []` in openapi.yaml), sent without a token.
    static let publicOperations: Set<String> = [
        "registerWithEmail", "loginWithEmail", "signInWithApple", "signInWithGoogle", "refreshSession", "logout",
        "forgotPassword", "resetPassword", "getConfig", "verifyEmail", "stopReminders",
    ]
    /// Public operations that also tell the server who is asking, when someone is signed in here: a confirmation link
    /// opened by the account's maker (ADR 0029).
    static let optionallyAuthenticatedOperations: Set<String> = ["verifyEmail"]

    let session: SessionManager

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if Self.optionallyAuthenticatedOperations.contains(operationID) {
            guard let token = try? await session.accessToken() else { return try await next(request, body, baseURL) }
            return try await next(request.authorized(with: token), body, baseURL)
        }
        guard !Self.publicOperations.contains(operationID) else { return try await next(request, body, baseURL) }
        let token = try await session.accessToken()
        let answer = try await next(request.authorized(with: token), body, baseURL)
        let bodyCanBeSentAgain = body.map { $0.iterationBehavior == .multiple } ?? true
        guard answer.0.status == .unauthorized, bodyCanBeSentAgain else { return answer }
        // The token died early (a sign-out elsewhere, a password change): refresh and try once more.
        let renewed = try await session.accessToken(afterRejecting: token)
        return try await next(request.authorized(with: renewed), body, baseURL)
    }
}

extension HTTPRequest {
    fileprivate func authorized(with token: String) -> HTTPRequest {
        var request = self
        request.headerFields[.authorization] = "Bearer \(token)"
        return request
    }
}
