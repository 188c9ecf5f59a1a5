import Foundation
import MyDayModels
import Testing

@testable import MyDayKit

@MainActor
@Suite struct EntryEditDraftTests {
    let harness = CoreHarness()

    func entry(zone: String = "Europe/Paris") throws -> LocalEntry {
        let id = UUID()
        var server = Given.serverEntry(id, title: "A walk")
        server.tags = ["walk"]
        server.mood = 3
        server.timeZone = zone
        try harness.synced([server])
        return try #require(try harness.store.entry(id))
    }

    @Test func anUntouchedDraftChangesNothingAndTypingLeftoversAreNoChange() throws {
        // Given an entry's draft
        var draft = EntryEditDraft(entry: try entry())
        #expect(draft.title == "A walk" && draft.tags == "walk" && draft.mood == 3)
        #expect(draft.edit.isEmpty && !draft.canSave)
        // When the person leaves a trailing comma and spaces, then nothing changed
        draft.tags = "walk, "
        draft.title = " A walk "
        draft.when = draft.when.addingTimeInterval(0.4)
        #expect(draft.edit.isEmpty)
    }

    @Test func onlyWhatChangedIsSentAndRemovalsAreSpelledAsTheServerTakesThem() throws {
        // Given a draft whose title and mood are removed and a tag added
        var draft = EntryEditDraft(entry: try entry())
        draft.title = "  "
        draft.mood = 0
        draft.tags = "walk, family"
        // Then the edit removes the title and the mood, and names the tags; the moment is unchanged
        #expect(draft.edit == EntryEdit(title: "", tags: ["walk", "family"], mood: 0))
        #expect(draft.canSave)
        // When the moment moves an hour, then it is sent in the entry's own zone
        draft.when = draft.when.addingTimeInterval(3600)
        #expect(draft.edit.moment == EntryMoment(createdAt: draft.when, timeZone: "Europe/Paris"))
        #expect(draft.timeZone.identifier == "Europe/Paris")
    }

    @Test func aTitleTooLongCannotBeSavedAndZonesReadAsWords() throws {
        var draft = EntryEditDraft(entry: try entry())
        draft.title = String(repeating: "a", count: 1_000)
        #expect(draft.titleProblem != nil && !draft.canSave)
        #expect(EntryEditDraft(entry: try entry(zone: "America/New_York")).zoneName == "America/New York")
    }
}
