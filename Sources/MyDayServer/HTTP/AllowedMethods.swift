import HTTPTypes
import Hummingbird

/// The methods each path of `openapi.yaml` takes (a test keeps this table equal to the document);
/// HEAD goes wherever GET does.
enum AllowedMethods {
    static let byPath: [(template: [Substring], methods: [HTTPRequest.Method])] = [
        ("/v1/auth/email/register", [.post]), ("/v1/auth/email/login", [.post]), ("/v1/auth/apple", [.post]),
        ("/v1/auth/google", [.post]), ("/v1/auth/refresh", [.post]), ("/v1/auth/logout", [.post]),
        ("/v1/auth/logout-all", [.post]), ("/v1/config", [.get]), ("/v1/auth/web/register", [.post]),
        ("/v1/auth/web/login", [.post]), ("/v1/auth/web/apple", [.post]), ("/v1/auth/web/google", [.post]),
        ("/v1/auth/web/refresh", [.post]), ("/v1/auth/web/logout", [.post]), ("/v1/auth/web/password/reset", [.post]),
        ("/v1/auth/password/forgot", [.post]), ("/v1/auth/password/reset", [.post]), ("/v1/auth/email/verify", [.post]),
        ("/v1/me/email", [.post]), ("/v1/me/email/verification", [.post]),
        ("/v1/me", [.get, .delete]), ("/v1/me/password", [.post, .delete]), ("/v1/me/stats", [.get]),
        ("/v1/me/vocabulary", [.get, .put]), ("/v1/me/on-this-day", [.get]), ("/v1/me/insights", [.get]),
        ("/v1/me/reminder", [.get, .put, .delete]), ("/v1/reminders/stop", [.post]), ("/v1/me/question", [.get]),
        ("/v1/me/push-subscriptions", [.get, .post]), ("/v1/me/push-subscriptions/{id}", [.delete]),
        ("/v1/me/push-subscriptions/{id}/test", [.post]),
        ("/v1/me/identities", [.get]), ("/v1/me/identities/{provider}", [.post, .delete]), ("/v1/entries", [.post, .get]),
        ("/v1/entries/{id}", [.get, .patch, .delete]), ("/v1/entries/{id}/complete", [.post]),
        ("/v1/entries/{id}/retranscribe", [.post]), ("/v1/entries/{id}/audio", [.get]),
        ("/v1/entries/{id}/words", [.get]), ("/v1/entries/{id}/suggestions", [.get]), ("/v1/events", [.get]),
        ("/v1/recently-deleted", [.get]), ("/v1/recently-deleted/{id}", [.delete]),
        ("/v1/recently-deleted/{id}/restore", [.post]),
        ("/v1/search", [.get]), ("/v1/days/{date}", [.get]),
        ("/v1/exports", [.post, .get]), ("/v1/exports/{id}", [.get, .delete]),
        ("/v1/blobs/audio/{user_id}/{entry_id}", [.put, .get]), ("/v1/blobs/exports/{user_id}/{export_id}", [.get]),
        ("/healthz", [.get]), ("/readyz", [.get]),
        ("/metrics", [.get]), ("/openapi.yaml", [.get]), ("/.well-known/apple-app-site-association", [.get]),
    ].map { ($0.0.split(separator: "/"), $0.1) }

    /// The methods `path` takes, or nil for a path the server does not have.
    static func methods(for path: Substring) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/")
        return byPath.first { template, _ in
            template.count == segments.count
                && zip(template, segments).allSatisfy { pattern, segment in pattern.hasPrefix("{") || pattern == segment }
        }?.methods
    }
}

/// Answers 405 with `Allow` to a method a known path does not take (TRACE included), before routing.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        if let methods = AllowedMethods.methods(for: request.uri.path[...]), !methods.contains(request.method),
            !(request.method == .head && methods.contains(.get))
        {
            throw APIError.methodNotAllowed(allowed: methods)
        }
        return try await next(request, context)
    }
}

extension APIError {
    static func methodNotAllowed(allowed: [HTTPRequest.Method]) -> APIError {
        var error = APIError(
            status: .methodNotAllowed, code: "method_not_allowed", message: "This path does not take that method.")
        error.allow = allowed.map(\.rawValue).joined(separator: ", ")
        return error
    }
}
