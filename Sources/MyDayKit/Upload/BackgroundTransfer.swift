import Foundation

/// Starts uploads that may outlive the app: a background `URLSession` on iOS, a fake in tests.
public protocol BackgroundTransfer: AnyObject, Sendable {
    /// Starts a PUT of `file` to `target` that may outlive the app; answers the task identifier.
    func startUpload(_ file: URL, to target: UploadTarget) async throws -> Int
    /// Identifiers of the upload tasks the system still runs (after a relaunch: those it kept).
    func runningTaskIDs() async -> Set<Int>
    /// Progress and completions, in order.
    var events: AsyncStream<BackgroundTransferEvent> { get }
}

/// What a background transfer reports about one of its tasks.
public enum BackgroundTransferEvent: Sendable, Equatable {
    case sent(taskID: Int, bytes: Int64, of: Int64)
    /// `status` is the HTTP status, nil when the request failed without an answer (then `error` says why).
    case finished(taskID: Int, status: Int?, retryAfter: String?, error: String?)
}

/// A background upload ended without an HTTP answer (no network, the system gave up).
public struct BackgroundTransferFailure: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public var description: String { "The upload did not reach the server: \(reason)" }
}
