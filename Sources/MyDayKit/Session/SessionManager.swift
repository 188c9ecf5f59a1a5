import Foundation

/// Holds the session and hands out access tokens, refreshing them with one request however many callers wait.
///
/// A token that expires within `refreshMargin` is refreshed before use. While a refresh is in flight,
/// every caller awaits that same refresh. When the server refuses the refresh token (401: revoked,
/// reused or expired), the session is cleared and callers get `MyDayClientError.sessionEnded`.
public actor SessionManager {
    /// Trades a refresh token for a new session (`POST /v1/auth/refresh`).
    public typealias Refresh = @Sendable (_ refreshToken: String) async throws -> Credentials

    private let store: CredentialStore
    private let refresh: Refresh
    private let now: @Sendable () -> Date
    private let refreshMargin: TimeInterval
    private var current: Credentials?
    private var loaded = false
    private var inFlight: Task<Credentials, any Error>?
    /// Changes with every sign-in and sign-out, so a refresh that started before one cannot undo it.
    private var generation = 0

    public init(
        store: CredentialStore, refreshMargin: TimeInterval = 60, now: @escaping @Sendable () -> Date = Date.init,
        refresh: @escaping Refresh
    ) {
        self.store = store
        self.refresh = refresh
        self.now = now
        self.refreshMargin = refreshMargin
    }

    /// The stored session, if any.
    public func credentials() throws -> Credentials? {
        if !loaded {
            current = try store.load()
            loaded = true
        }
        return current
    }

    /// Whether a refresh request is out now.
    public var isRefreshing: Bool { inFlight != nil }

    /// Keeps a session a sign-in answered.
    public func begin(_ credentials: Credentials) throws {
        generation += 1
        inFlight = nil
        try store.save(credentials)
        current = credentials
        loaded = true
    }

    /// Forgets the session on this device.
    public func end() throws {
        generation += 1
        inFlight = nil
        current = nil
        loaded = true
        try store.clear()
    }

    /// An access token that is valid for at least `refreshMargin`, refreshing first when needed.
    public func accessToken() async throws -> String {
        guard let credentials = try credentials() else { throw MyDayClientError.notSignedIn }
        if credentials.accessTokenExpiresAt > now().addingTimeInterval(refreshMargin) { return credentials.accessToken }
        return try await refreshed().accessToken
    }

    /// A token to retry with after the server refused `rejected`: a newer one if another caller already refreshed.
    public func accessToken(afterRejecting rejected: String) async throws -> String {
        guard let credentials = try credentials() else { throw MyDayClientError.notSignedIn }
        if credentials.accessToken != rejected { return credentials.accessToken }
        return try await refreshed().accessToken
    }

    private func refreshed() async throws -> Credentials {
        if let inFlight { return try await Self.value(of: inFlight) }
        guard let refreshToken = current?.refreshToken else { throw MyDayClientError.notSignedIn }
        let generation = self.generation
        let refresh = self.refresh
        let task = Task<Credentials, any Error> { try await refresh(refreshToken) }
        inFlight = task
        defer { if inFlight == task { inFlight = nil } }
        do {
            let renewed = try await task.value
            // A sign-out or another sign-in while the request was out: its answer belongs to nobody now.
            guard self.generation == generation else { throw MyDayClientError.sessionEnded }
            try store.save(renewed)
            current = renewed
            return renewed
        } catch let error as MyDayClientError where error.status == 401 {
            if self.generation == generation { try end() }
            throw MyDayClientError.sessionEnded
        }
    }

    /// A refresh's answer as a waiting caller sees it: a refused refresh token ends the session for them too.
    private static func value(of task: Task<Credentials, any Error>) async throws -> Credentials {
        do {
            return try await task.value
        } catch let error as MyDayClientError where error.status == 401 {
            throw MyDayClientError.sessionEnded
        }
    }
}
