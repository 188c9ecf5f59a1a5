import Foundation
import MyDayModels

/// What `POST /v1/entries` needs to create an entry (or find it again: the id makes it idempotent).
public struct NewEntry: Sendable, Equatable {
    public var id: UUID
    public var createdAt: Date
    public var timeZone: String
    public var duration: TimeInterval
    public var kind: EntryKind
    /// The text of a typed entry.
    public var text: String?
    public var sizeBytes: Int?
    public var container: AudioContainer?
    public var language: String?
    /// For an imported file: the SHA-256 of its bytes (lowercase hex); the server answers the entry it already made of it.
    public var sourceSHA256: String?

    public init(
        id: UUID, createdAt: Date, timeZone: String, duration: TimeInterval, kind: EntryKind, text: String? = nil,
        sizeBytes: Int? = nil, container: AudioContainer? = nil, language: String? = nil, sourceSHA256: String? = nil
    ) {
        self.sourceSHA256 = sourceSHA256
        self.id = id
        self.createdAt = createdAt
        self.timeZone = timeZone
        self.duration = duration
        self.kind = kind
        self.text = text
        self.sizeBytes = sizeBytes
        self.container = container
        self.language = language
    }
}
