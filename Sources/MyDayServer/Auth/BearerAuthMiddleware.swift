import Foundation
import HTTPTypes
import MyDayModels
import OpenAPIRuntime

/// The user a request is made for, set by `BearerAuthMiddleware` for the operation's handler.
enum RequestUser {
    @TaskLocal static var current: UserRecord?
    /// When the person behind the request's token signed in, for operations that need a recent sign-in.
    @TaskLocal static var signedInAt: Date?
    /// When the request's access token expires: an event stream ends then.
    @TaskLocal static var tokenExpiresAt: Date?

    /// Whether the sign-in behind this request happened within `interval`.
    static func signedInRecently(within interval: TimeInterval, now: Date = Date()) -> Bool {
        (signedInAt ?? .distantPast) > now.addingTimeInterval(-interval)
    }

    /// The signed-in user; throws 401 where the operation ran without one.
    static func required() throws -> UserRecord {
        guard let current else { throw APIError.unauthorized }
        return current
    }
}

/// Checks the bearer access token of every operation that needs one: genuine, unexpired, and of the
/// user's current token version (so revoking sessions revokes access tokens too).
struct BearerAuthMiddleware: ServerMiddleware {
    let accessTokens: AccessTokens
    let users: UserStore
    /// Operations anyone may call.
    static let publicOperations: Set<String> = [
        "registerWithEmail", "loginWithEmail", "signInWithApple", "signInWithGoogle", "refreshSession", "logout", "getConfig",
        "forgotPassword", "resetPassword", "verifyEmail", "stopReminders",
    ]
    /// Public operations that also learn who is asking when a good token comes with them: a confirmation link
    /// opened by the account's own creator.
    static let optionallyAuthenticatedOperations: Set<String> = ["verifyEmail"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if Self.publicOperations.contains(operationID) {
            guard Self.optionallyAuthenticatedOperations.contains(operationID),
                let (user, _) = try? await Self.authenticate(
                    request.headerFields[.authorization], accessTokens: accessTokens, users: users)
            else { return try await next(request, body, metadata) }
            return try await RequestUser.$current.withValue(user) { try await next(request, body, metadata) }
        }
        let (user, claims) = try await Self.authenticate(
            request.headerFields[.authorization], accessTokens: accessTokens, users: users)
        return try await RequestUser.$current.withValue(user) {
            try await RequestUser.$signedInAt.withValue(Date(timeIntervalSince1970: TimeInterval(claims.authTime))) {
                try await RequestUser.$tokenExpiresAt.withValue(claims.exp.value) {
                    try await next(request, body, metadata)
                }
            }
        }
    }

    /// The user of an `Authorization: Bearer` header and its token's claims; 401 unless the token is genuine, unexpired
    /// and of the user's current token version.
    static func authenticate(_ header: String?, accessTokens: AccessTokens, users: UserStore) async throws -> (
        UserRecord, AccessTokens.Claims
    ) {
        guard let (userID, claims) = await verifiedClaims(header, accessTokens: accessTokens),
            let user = try await users.user(id: userID),
            user.tokenVersion == claims.ver
        else { throw APIError.unauthorized }
        return (user, claims)
    }

    /// The account of an `Authorization: Bearer` header and its state, for reads of its entries: the same checks as
    /// `authenticate`, with the account's narrow row instead of the user's.
    static func authenticateAccount(_ header: String?, accessTokens: AccessTokens, users: UserStore) async throws -> (
        userID: UUID, state: AccountState
    ) {
        guard let (userID, claims) = await verifiedClaims(header, accessTokens: accessTokens),
            let state = try await users.accountState(id: userID),
            state.tokenVersion == claims.ver
        else { throw APIError.unauthorized }
        return (userID, state)
    }

    /// The user id and claims of a genuine, unexpired bearer token; nil for anything else.
    private static func verifiedClaims(_ header: String?, accessTokens: AccessTokens) async -> (UUID, AccessTokens.Claims)? {
        guard let token = BearerCredential.token(in: header), let claims = await accessTokens.verify(String(token)),
            let userID = UUID(text: claims.sub.value)
        else { return nil }
        return (userID, claims)
    }
}
