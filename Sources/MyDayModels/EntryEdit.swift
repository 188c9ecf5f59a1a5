import Foundation

/// When an entry was made and the time zone it was made in: what moving it to another day or time changes.
public struct EntryMoment: Sendable, Equatable, Codable {
    public var createdAt: Date
    /// An IANA time zone name.
    public var timeZone: String

    public init(createdAt: Date, timeZone: String) {
        self.createdAt = createdAt
        self.timeZone = timeZone
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
    /// Another day or time (a backdated entry, a wrong clock).
    public var moment: EntryMoment?

    public init(
        title: String? = nil, text: String? = nil, tags: [String]? = nil, mood: Int? = nil, moment: EntryMoment? = nil
    ) {
        self.title = title
        self.text = text
        self.tags = tags
        self.mood = mood
        self.moment = moment
    }

    /// This edit with `newer`'s fields laid over it.
    public func merged(with newer: EntryEdit) -> EntryEdit {
        EntryEdit(
            title: newer.title ?? title, text: newer.text ?? text, tags: newer.tags ?? tags, mood: newer.mood ?? mood,
            moment: newer.moment ?? moment)
    }

    public var isEmpty: Bool { title == nil && text == nil && tags == nil && mood == nil && moment == nil }

    /// Applies this edit to an entry's fields, the one rule of the server and every client: nil leaves a field as it is,
    /// an empty title and mood 0 remove them.
    public func apply(
        title: inout String?, text: inout String?, tags: inout [String], mood: inout Int?, createdAt: inout Date,
        timeZone: inout String
    ) {
        if let newTitle = self.title { title = newTitle.isEmpty ? nil : newTitle }
        if let newText = self.text { text = newText }
        if let newTags = self.tags { tags = newTags }
        if let newMood = self.mood { mood = newMood == 0 ? nil : newMood }
        if let moment {
            createdAt = moment.createdAt
            timeZone = moment.timeZone
        }
    }
}
