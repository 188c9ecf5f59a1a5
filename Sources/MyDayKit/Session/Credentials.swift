import Foundation

/// A signed-in session: the tokens and who they belong to.
public struct Credentials: Sendable, Equatable, Codable {
    public var accessToken: String
    public var refreshToken: String
    /// When the access token stops working.
    public var accessTokenExpiresAt: Date
    public var account: Account

    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, account: Account) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.account = account
    }
}

/// Keeps the session between launches: the Keychain on Apple platforms, a 0600 file elsewhere.
public protocol CredentialStore: Sendable {
    func load() throws -> Credentials?
    func save(_ credentials: Credentials) throws
    func clear() throws
}

extension CredentialStore {
    /// Whether a session is stored; nil when the store cannot be read now (a Keychain before the first unlock), which
    /// says nothing about the session.
    public var holdsSession: Bool? {
        switch Result(catching: { try load() }) {
        case .success(let stored): stored != nil
        case .failure: nil
        }
    }

    /// Forgets a session that outlived its diary: the Keychain outlives a deleted app, and a session from before a
    /// reinstall must not meet a diary tied to no one.
    public func forgetUnlessDiaryIn(_ directory: URL) {
        guard !FileManager.default.fileExists(atPath: directory.appendingPathComponent(ClientCore.storeFileName).path) else {
            return
        }
        try? clear()
    }
}

/// Credentials kept in memory only: for tests and for a session that must not outlive the process.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var credentials: Credentials?

    public init(_ credentials: Credentials? = nil) { self.credentials = credentials }

    public func load() throws -> Credentials? { lock.withLock { credentials } }
    public func save(_ credentials: Credentials) throws { lock.withLock { self.credentials = credentials } }
    public func clear() throws { lock.withLock { credentials = nil } }
}
