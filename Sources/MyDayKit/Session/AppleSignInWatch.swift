import Foundation

/// What Sign in with Apple says of an Apple ID's use of this app (`ASAuthorizationAppleIDProvider.getCredentialState`).
public enum AppleIDCredentialState: Sendable, Equatable {
    case authorized
    /// The person stopped using Apple ID with this app (Settings › Apple ID › Sign in with Apple), or Apple revoked it.
    case revoked
    case notFound
    /// The app moved to another developer team; the ID must be migrated, so the session ends too.
    case transferred
}

/// Ends a session that began with Sign in with Apple once that Apple ID no longer signs in to this app. It keeps the
/// Apple user identifier of the session (given at sign-in) in `file` and checks its state when asked: at launch, and
/// when iOS posts `credentialRevokedNotification`.
public actor AppleSignInWatch {
    private let file: URL
    private let state: @Sendable (_ userID: String) async -> AppleIDCredentialState
    private let endSession: @Sendable () async -> Void

    /// - Parameters:
    ///   - state: Asks Sign in with Apple about `userID`.
    ///   - endSession: Signs out on this device (what it had not sent stays, as when the server ends a session).
    public init(
        file: URL, state: @escaping @Sendable (_ userID: String) async -> AppleIDCredentialState,
        endSession: @escaping @Sendable () async -> Void
    ) {
        self.file = file
        self.state = state
        self.endSession = endSession
    }

    /// A session began with Sign in with Apple as `userID`; nil for one that began otherwise.
    public func signedIn(appleUserID userID: String?) throws {
        guard let userID else { return signedOut() }
        try FileSystem.write(Data(userID.utf8), replacing: file)
    }

    /// The session ended on this device.
    public func signedOut() {
        try? FileManager.default.removeItem(at: file)
    }

    /// Asks Sign in with Apple about the session's Apple ID, and ends the session unless it is still authorized;
    /// answers whether it did.
    @discardableResult
    public func check() async -> Bool {
        guard let data = try? Data(contentsOf: file), let userID = String(data: data, encoding: .utf8), !userID.isEmpty
        else { return false }
        guard await state(userID) != .authorized else { return false }
        signedOut()
        await endSession()
        return true
    }
}
