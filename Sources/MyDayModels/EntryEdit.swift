import Foundation

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

    /// Applies this edit to an entry's fields, the one rule of the server and every client: nil leaves a field as it is,
    /// an empty title and mood 0 remove them.
    public func apply(title: inout String?, text: inout String?, tags: inout [String], mood: inout Int?) {
        if let newTitle = self.title { title = newTitle.isEmpty ? nil : newTitle }
        if let newText = self.text { text = newText }
        if let newTags = self.tags { tags = newTags }
        if let newMood = self.mood { mood = newMood == 0 ? nil : newMood }
    }
}
