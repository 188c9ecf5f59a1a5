import Foundation
import MyDayModels
import MyDaySearch
import Observation

/// A day page: the day's digest in its own words (a recorded sentence plays from where it was said), its tags and mood,
/// and its entries.
@MainActor
@Observable
public final class DayViewModel {
    /// One of the day's entries as the page lists it: the time it was made, in its own zone, and its words.
    public struct EntryLine: Identifiable, Equatable, Sendable {
        public let id: UUID
        public let time: String
        public let title: String
    }

    /// `YYYY-MM-DD`.
    public let date: String
    public private(set) var page: DayPage?
    public private(set) var errorMessage: String?

    private let core: ClientCore
    private let timeZone: TimeZone
    private let locale: Locale

    public init(date: String, core: ClientCore, timeZone: TimeZone = .current, locale: Locale = .current) {
        self.date = date
        self.core = core
        self.timeZone = timeZone
        self.locale = locale
    }

    public func load() async {
        do {
            page = try await core.client.day(date, timeZone: timeZone.identifier)
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// "Thursday, 26 November 2026": the calendar day, whatever the device's zone.
    public var title: String {
        guard let day = LocalDay(iso: date) else { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)) ?? Date()
        return noon.formatted(Date.FormatStyle(date: .complete, time: .omitted, timeZone: .gmt))
    }

    /// "2 entries · mood 3 of 5 · sea, friends".
    public var summary: String {
        guard let page else { return "" }
        var parts = [counted(page.entries.count, "entry", "entries")]
        if let mood = page.mood { parts.append("mood \(mood) of 5") }
        if !page.tags.isEmpty { parts.append(page.tags.joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }

    /// The day's entries, oldest first, named as the Library names them.
    public var entryLines: [EntryLine] {
        (page?.entries ?? []).map { entry in
            EntryLine(
                id: entry.id,
                time: LibraryViewModel.format(
                    entry.createdAt, TimeZone(identifier: entry.timeZone) ?? timeZone, .time, locale: locale),
                title: LibraryViewModel.title(of: LocalEntry(entry, audioPath: nil)))
        }
    }

    /// Where a digest sentence plays from: its recording and the second it begins; nil for typed text.
    public func playback(of sentence: DayPage.Sentence) -> (entryID: UUID, start: Double)? {
        guard let start = sentence.start, page?.entries.first(where: { $0.id == sentence.entryID })?.kind == .audio
        else { return nil }
        return (sentence.entryID, start)
    }

    /// The recording of an entry of the day: this device's file when it has it, else a signed link.
    public func audioURL(of entryID: UUID) async -> URL? {
        if let path = try? core.store.entry(entryID)?.audioPath,
            FileManager.default.fileExists(atPath: core.library.url(of: path).path)
        {
            return core.library.url(of: path)
        }
        do {
            return try await core.client.audioLink(for: entryID).url
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
            return nil
        }
    }
}
