import Foundation

/// What an upload error means for the queue: try again later, give up with a reason, or pause without counting.
enum UploadFailure: Equatable {
    case retry(reason: String, retryAfter: TimeInterval?)
    case permanent(reason: String)
    /// Nothing is wrong with the entry: no session, or the pass was cancelled. It waits, no attempt counted.
    case pause(reason: String)

    init(_ error: any Error) {
        switch error {
        case let error as MyDayClientError:
            switch error {
            case .notSignedIn, .sessionEnded: self = .pause(reason: error.description)
            case .server(401, _, let message, _): self = .pause(reason: message)
            case .server(let status, _, let message, let retryAfter):
                self =
                    Self.isWorthRetrying(status) ? .retry(reason: message, retryAfter: retryAfter) : .permanent(reason: message)
            case .unexpectedResponse: self = .retry(reason: error.description, retryAfter: nil)
            }
        case let error as BlobUploadError:
            // 403: the signed URL expired; the next attempt creates the entry again and gets a fresh one.
            // 0: no HTTP answer at all, as a network failure.
            self =
                Self.isWorthRetrying(error.status) || error.status == 403 || error.status == 0
                ? .retry(reason: error.description, retryAfter: error.retryAfter) : .permanent(reason: error.description)
        case let error as RecordingLibraryError:
            self = .permanent(reason: error.description)
        case is CancellationError:
            self = .pause(reason: "Stopped before the end.")
        default:
            self = .retry(reason: "Could not reach the server: \(String(describing: error))", retryAfter: nil)
        }
    }

    /// Timeouts, throttling and server errors can pass; other refusals answer the same every time.
    private static func isWorthRetrying(_ status: Int) -> Bool {
        status == 408 || status == 425 || status == 429 || status >= 500
    }
}
