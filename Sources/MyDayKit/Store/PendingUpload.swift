import Foundation
import GRDB

/// One entry waiting in the upload queue, persisted so the queue survives restarts.
public struct PendingUpload: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "upload"

    public var entryID: UUID
    /// Failed attempts so far; the next delay grows with it.
    public var attempts: Int
    /// Not before this time.
    public var nextAttemptAt: Date
    /// Why the last attempt failed, for people.
    public var lastError: String?
    /// What the device's own recognizer heard, sent with `complete` so the server only cleans it.
    public var deviceTranscript: DeviceTranscript? = nil
    /// The device is still transcribing: the upload waits for those words (or for the attempt to fail).
    public var awaitsDeviceTranscript = false
    /// For an imported file: the SHA-256 of its bytes, by which the server answers the entry it already made of it.
    public var sourceSHA256: String? = nil
}
