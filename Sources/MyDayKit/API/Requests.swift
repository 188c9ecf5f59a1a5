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

    public init(
        id: UUID, createdAt: Date, timeZone: String, duration: TimeInterval, kind: EntryKind, text: String? = nil,
        sizeBytes: Int? = nil, container: AudioContainer? = nil, language: String? = nil
    ) {
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
