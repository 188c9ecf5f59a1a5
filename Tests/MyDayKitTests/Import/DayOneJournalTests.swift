import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

@Suite struct DayOneJournalTests {
    @Test func entriesAreReadOldestFirstWithTheirZonesAndReadableWords() async throws {
        // Given an export of two entries written newest first, one with markdown Day One escaped
        let zip = try await DayOneExport.zip([
            DayOneExport.Entry(
                uuid: "B2", creationDate: "2020-02-02T08:00:00Z", timeZone: "America/Chicago",
                text: "**Bold** stays; 3\\. 4\\! and a \\*star\\* stay escaped.\n![](dayone-moment://ABC)"),
            DayOneExport.Entry(uuid: "A1", creationDate: "2020-01-01T08:00:00Z", timeZone: "Nowhere/Invalid", text: "First."),
        ])

        // When it is read
        let journal = try DayOneJournal(zip: zip)

        // Then the older comes first, an unknown zone falls back to this machine's, and the words read plainly
        #expect(journal.entries.map(\.uuid) == ["A1", "B2"])
        #expect(journal.entries[0].timeZone == .current)
        #expect(journal.entries[1].timeZone.identifier == "America/Chicago")
        #expect(journal.entries[1].text == "**Bold** stays; 3. 4! and a \\*star\\* stay escaped.")
        #expect(journal.problems.isEmpty)
    }

    @Test func photosVideosAndPDFsAreNamedAsNotKept() async throws {
        // Given an entry of words with two photos and a video, and one of a photo alone
        let zip = try await DayOneExport.zip([
            DayOneExport.Entry(
                uuid: "C3", creationDate: "2020-03-03T08:00:00Z", timeZone: "UTC", text: "The harbour.\n![](dayone-moment://P1)",
                photos: 2, videos: 1),
            DayOneExport.Entry(uuid: "D4", creationDate: "2020-03-04T08:00:00Z", timeZone: "UTC", text: "", photos: 1, pdfs: 3),
        ])

        // When it is read
        let journal = try DayOneJournal(zip: zip)

        // Then the words are read, and each entry says what of it is not kept
        #expect(journal.entries.map(\.text) == ["The harbour.", ""])
        #expect(
            journal.problems == [
                "Entry C3 of Journal.json has 2 photos and a video, which My Day does not keep (it keeps words and recordings).",
                "Entry D4 of Journal.json has a photo and 3 PDFs, which My Day does not keep (it keeps words and recordings).",
            ])
    }

    @Test func aFileThatIsNoDayOneExportIsRefusedInASentence() async throws {
        let folder = TestFolder.make("dayone")
        let notZip = folder.appendingPathComponent("notes.zip")
        try Data("plain text".utf8).write(to: notZip)
        #expect(throws: DayOneJournalError.self) { try DayOneJournal(zip: notZip) }
        do {
            _ = try DayOneJournal(zip: notZip)
        } catch {
            #expect("\(error)" == "notes.zip is not a zip file Day One exported.")
        }
        // (an export of an empty journal is read, with nothing in it)
        let zip = try await DayOneExport.zip([], journal: "Other")
        let empty = try DayOneJournal(zip: zip)
        #expect(empty.entries.isEmpty && empty.problems.isEmpty)
    }
}
