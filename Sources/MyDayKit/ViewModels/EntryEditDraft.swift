import Foundation
import MyDayModels

/// The edit sheet's fields for one entry: its title, its tags typed with commas, its mood (0 for none) and when it was
/// made, in its own time zone. `edit` holds only the fields that differ from the entry.
public struct EntryEditDraft: Sendable {
    /// The earliest moment an entry may have, as the server allows.
    public static let earliest = Date(timeIntervalSince1970: 946_684_800)
    /// The moods a person can give, as the edit sheet and the Library's filters name them.
    public static let moods: [(value: Int, label: String)] = [
        (1, "1 · low"), (2, "2"), (3, "3"), (4, "4"), (5, "5 · great"),
    ]

    public let entry: LocalEntry
    public var title: String
    public var tags: String
    public var mood: Int
    public var when: Date

    public init(entry: LocalEntry) {
        self.entry = entry
        title = entry.title ?? ""
        tags = entry.tags.joined(separator: ", ")
        mood = entry.mood ?? 0
        when = entry.createdAt
    }

    /// What changed; a removed title is "" and a removed mood 0, as `EntryEdit` spells them. A moment within a second
    /// of the entry's is no change.
    public var edit: EntryEdit {
        let newTitle = title.trimmingCharacters(in: .whitespacesAndNewlines)
        let newTags = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return EntryEdit(
            title: newTitle == (entry.title ?? "") ? nil : newTitle,
            tags: newTags == entry.tags ? nil : newTags,
            mood: mood == (entry.mood ?? 0) ? nil : mood,
            moment: abs(when.timeIntervalSince(entry.createdAt)) < 1
                ? nil : EntryMoment(createdAt: when, timeZone: entry.timeZone))
    }

    /// What is wrong with the title, if anything.
    public var titleProblem: String? { EntryDetailViewModel.titleProblem(title) }

    /// Something changed, and the title can be saved.
    public var canSave: Bool { !edit.isEmpty && titleProblem == nil }

    /// The entry's own time zone, in which its moment is shown and picked.
    public var timeZone: TimeZone { TimeZone(identifier: entry.timeZone) ?? .current }

    /// The time zone's name for people: "America/New York".
    public var zoneName: String { entry.timeZone.replacingOccurrences(of: "_", with: " ") }
}
