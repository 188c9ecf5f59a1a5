import Foundation

/// What opening a link of the server's mail in the app did.
public enum MailedLinkOutcome: Sendable, Equatable {
    /// The address is confirmed (or the account's new address is now its own).
    case confirmed(email: String)
    /// A link that sets a new password: the screen that asks for one takes its token.
    case setPassword(token: String)
    /// The server refused it (used, expired, another account's); the reason, for the person.
    case failed(String)

    /// What the link did, in words; nil for a password link, which opens its own sheet.
    public var message: String? {
        switch self {
        case .confirmed(let email): "\(email) is confirmed as your My Day address."
        case .failed(let reason): reason
        case .setPassword: nil
        }
    }

    /// The title above `message`.
    public var title: String {
        if case .failed = self { return "The link did not work" }
        return "Address confirmed"
    }

    /// The token of a link that sets a new password.
    public var passwordToken: String? {
        if case .setPassword(let token) = self { return token }
        return nil
    }
}

extension ClientCore {
    /// Acts on a link of `server`'s mail that opened the app: an address is confirmed at once, a password link goes to
    /// the screen that sets one. Nil for any other URL (another server's included): the caller leaves it alone.
    @MainActor public func openMailedLink(_ url: URL, server: URL) async -> MailedLinkOutcome? {
        guard url.host?.lowercased() == server.host?.lowercased(), let request = MailedLink.request(in: url) else {
            return nil
        }
        switch request {
        case .setPassword(let token):
            return .setPassword(token: token)
        case .confirmAddress(let token):
            do {
                return .confirmed(email: try await client.verifyEmail(token: token))
            } catch {
                return .failed(LibraryViewModel.message(for: error))
            }
        }
    }
}
