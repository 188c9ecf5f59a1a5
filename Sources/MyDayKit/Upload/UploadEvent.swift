import Foundation

/// What the upload queue reports as it works, for progress output and status text.
public enum UploadEvent: Sendable, Equatable {
    case started(UUID)
    case progress(UUID, sent: Int64, total: Int64)
    case uploaded(UUID)
    /// An imported file the diary already holds as the entry `as`: nothing was sent, and the queued copy is gone.
    case alreadyInTheDiary(UUID, as: UUID)
    case willRetry(UUID, reason: String, at: Date)
    case gaveUp(UUID, reason: String)
    /// The queue stopped before the end: offline, or no session.
    case paused(reason: String)
}

/// What one pass over the queue did.
public struct UploadSummary: Sendable, Equatable {
    public var uploaded = 0
    /// Imported files the diary already held.
    public var alreadyInTheDiary = 0
    public var retrying = 0
    /// Of those put off, the ones the server asked to wait (a rate limit, or a server busy for a while).
    public var throttled = 0
    public var gaveUp = 0
    /// Why the pass stopped early, if it did.
    public var pausedBecause: String?

    public init() {}
}
