import Foundation
import Observation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One sign-in form's work (signing in, mailing a reset link, setting a new password): whether it runs, and what went
/// wrong in words, the server's own sentence when it gave one. One the person cancelled (a provider's sheet closed)
/// says nothing.
@MainActor
@Observable
public final class SignInAttempt {
    public private(set) var isWorking = false
    public var errorMessage: String?

    public init() {}

    /// Starts `work` unless an attempt runs already.
    public func run(_ work: @escaping @MainActor () async throws -> Void) {
        guard !isWorking else { return }
        isWorking = true
        errorMessage = nil
        Task { await finish(work) }
    }

    /// `run`, awaited.
    public func perform(_ work: @escaping @MainActor () async throws -> Void) async {
        guard !isWorking else { return }
        isWorking = true
        errorMessage = nil
        await finish(work)
    }

    private func finish(_ work: @escaping @MainActor () async throws -> Void) async {
        do {
            try await work()
        } catch is CancellationError {
        } catch {
            errorMessage = Self.message(for: error)
        }
        isWorking = false
    }

    /// Whether an email form can be sent: an address and a password typed, and nothing under way.
    public func canSubmit(email: String, password: String) -> Bool {
        !isWorking && !email.trimmingCharacters(in: .whitespaces).isEmpty && !password.isEmpty
    }

    /// Whether a new password is long enough to send (the server checks the rest).
    public static func isLongEnough(newPassword: String) -> Bool {
        newPassword.trimmingCharacters(in: .whitespaces).count >= 8
    }

    /// A failed attempt in words.
    public static func message(for error: any Error) -> String {
        switch error {
        case let error as MyDayClientError: error.description
        case let error as LocalStoreError: error.description
        case is URLError: "Could not reach the server. Check the address under Your server."
        default: error.localizedDescription
        }
    }
}

/// Google's sign-in answered without what the server needs.
public enum GoogleSignInFailure: LocalizedError {
    case noIDToken

    public var errorDescription: String? {
        "Google did not confirm who you are. Try again, or sign in another way."
    }
}
