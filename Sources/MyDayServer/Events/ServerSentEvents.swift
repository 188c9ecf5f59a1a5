import Foundation

/// The text of `GET /v1/events`, in the server-sent events format (one event or comment per signal).
enum ServerSentEvents {
    /// `event: change` with `{"change_seq": N}`, or a keep-alive comment.
    static func text(of signal: ChangeFeed.Signal) -> String {
        switch signal {
        case .changed(let sequence): "event: change\ndata: {\"change_seq\":\(sequence)}\n\n"
        case .keepAlive: ": keep-alive\n\n"
        }
    }
}
