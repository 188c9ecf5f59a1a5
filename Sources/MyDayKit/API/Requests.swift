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

/// The fields a person edits; `nil` leaves a field as it is.
public struct EntryEdit: Sendable, Equatable, Codable {
    /// An empty string removes the title.
    public var title: String?
    public var text: String?
    public var tags: [String]?
    /// 1 to 5; 0 removes the mood.
    public var mood: Int?

    public init(title: String? = nil, text: String? = nil, tags: [String]? = nil, mood: Int? = nil) {
        self.title = title
        self.text = text
        self.tags = tags
        self.mood = mood
    }

    /// This edit with `newer`'s fields laid over it.
    public func merged(with newer: EntryEdit) -> EntryEdit {
        EntryEdit(
            title: newer.title ?? title, text: newer.text ?? text, tags: newer.tags ?? tags, mood: newer.mood ?? mood)
    }

    public var isEmpty: Bool { title == nil && text == nil && tags == nil && mood == nil }
}
