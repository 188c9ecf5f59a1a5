import Foundation

/// What went wrong talking to the server, in terms a client can act on.
public enum MyDayClientError: Error, Equatable, CustomStringConvertible {
    /// No session is stored: sign in first.
    case notSignedIn
    /// The server refused the refresh token (revoked, reused or expired); the session is gone.
    case sessionEnded
    /// The server answered with an error: its status, stable code and sentence for people.
    case server(status: Int, code: String, message: String, retryAfter: TimeInterval?)
    /// The server answered something the API does not describe.
    case unexpectedResponse(String)

    public var description: String {
        switch self {
        case .notSignedIn: "Not signed in."
        case .sessionEnded: "The session ended; sign in again."
        // The server's messages are sentences for people; only its own failures are put in other words.
        case .server(let status, _, _, _) where status >= 500:
            "The server could not do this just now; nothing was lost. Try again in a moment."
        case .server(_, _, let message, _): message
        case .unexpectedResponse(let what): "The server gave an answer My Day does not understand (\(what))."
        }
    }

    /// The HTTP status, when the server answered with an error.
    public var status: Int? {
        if case .server(let status, _, _, _) = self { return status }
        return nil
    }
}
