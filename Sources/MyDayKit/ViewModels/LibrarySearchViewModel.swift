import Foundation
import MyDayModels
import MyDaySearch
import Observation

/// The Library's search: the server's ranked hits with their matches marked, filter chips, more pages; when the
/// server cannot be reached, the same search over the entries on this device. Entries not sent yet are found too.
@MainActor
@Observable
public final class LibrarySearchViewModel {
    /// One hit as a row shows it.
    public struct Row: Identifiable, Equatable, Sendable {
        public let id: UUID
        /// The day and time in the entry's own zone ("Tuesday 17 March, 18:30").
        public let date: String
        /// The title with its matches, else the row's words unmarked.
        public let title: Highlight
        /// A passage of the transcript with its matches, else its start.
        public let snippet: Highlight?
        /// The tags with their matches, when a tag matched.
        public let tags: Highlight?
        public let pill: StatusPill?
    }

    /// A filter in force, shown as a chip that takes it away.
    public struct Chip: Identifiable, Equatable, Sendable {
        public enum Filter: Equatable, Sendable {
            case datePhrase, days
            case tag(String)
            case moods, kind
        }
        public let filter: Filter
        public let label: String
        public var id: String { label }
    }

    /// The words in the search field.
    public var text = ""
    public var filters = SearchFilters()
    /// False once the person took the date phrase's chip away: its words are then words.
    public private(set) var readsDates = true
    /// Nil while there is nothing to search for (the Library shows the diary).
    public private(set) var rows: [Row]?
    public private(set) var chips: [Chip] = []
    public private(set) var canLoadMore = false
    /// Set while the rows come from this device because the server could not be reached.
    public private(set) var offlineNotice: String?
    public private(set) var errorMessage: String?
    /// "No matches" after a search that found nothing.
    public var showsNoMatches: Bool { rows?.isEmpty == true }

    private let core: ClientCore
    private let locale: Locale
    private let timeZone: TimeZone
    private let now: @Sendable () -> Date
    private let typingPause: @Sendable () async throws -> Void
    private var cursor: String?
    private var generation = 0
    /// The words `textChanged` last searched for, so that coming back to the screen does not search (and read a date
    /// phrase) again.
    private var searchedText = ""

    /// - Parameter typingPause: Waits for typing to pause before new words are searched for (300 ms; tests pass a
    ///   wait they end).
    public init(
        core: ClientCore, locale: Locale = .current, timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = { Date() },
        typingPause: @escaping @Sendable () async throws -> Void = { try await Task.sleep(for: .milliseconds(300)) }
    ) {
        self.core = core
        self.locale = locale
        self.timeZone = timeZone
        self.now = now
        self.typingPause = typingPause
    }

    /// The words typed changed: once typing pauses they are searched for, and a date phrase in them is read again.
    /// The screen calls it for each change, in a task the next change cancels; words already searched for are not
    /// searched for again.
    public func textChanged() async {
        guard text != searchedText else { return }
        do {
            try await typingPause()
            try Task.checkCancellation()
        } catch {
            return
        }
        searchedText = text
        wordsChanged()
        await search()
    }

    /// Searches for `text` with the filters; the screen calls it as the words change (after a short pause).
    public func search() async {
        generation += 1
        let current = generation
        let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !words.isEmpty || !filters.isEmpty else {
            (rows, chips, canLoadMore, offlineNotice, errorMessage, cursor) = (nil, [], false, nil, nil, nil)
            readsDates = true
            return
        }
        let request = request(cursor: nil)
        let query = localQuery(words)
        do {
            let page = try await core.client.search(request)
            guard current == generation else { return }
            let unsent = try unsentMatches(query)
            let sent = Set(unsent.map(\.id))
            show(
                unsent.map { row(for: $0, query) } + page.hits.filter { !sent.contains($0.entry.id) }.map(row(for:)),
                datePhrase: page.datePhrase, dates: page.dates)
            cursor = page.nextCursor
            canLoadMore = page.nextCursor != nil
            offlineNotice = nil
        } catch let error as MyDayClientError where !Self.meansUnreachable(error) {
            guard current == generation else { return }
            errorMessage = error.description
        } catch {
            guard current == generation else { return }
            searchOnDevice(query)
        }
    }

    /// The next page of the server's hits, after the last.
    public func loadMore() async {
        guard let cursor, canLoadMore else { return }
        let current = generation
        let request = request(cursor: cursor)
        do {
            let page = try await core.client.search(request)
            guard current == generation else { return }
            let shown = Set((rows ?? []).map(\.id))
            rows = (rows ?? []) + page.hits.filter { !shown.contains($0.entry.id) }.map(row(for:))
            self.cursor = page.nextCursor
            canLoadMore = page.nextCursor != nil
        } catch {
            guard current == generation else { return }
            errorMessage = (error as? MyDayClientError)?.description ?? "Could not load more; try again."
        }
    }

    /// Takes a chip's filter away and searches again.
    public func remove(_ chip: Chip) async {
        switch chip.filter {
        case .datePhrase: readsDates = false
        case .days: (filters.from, filters.to) = (nil, nil)
        case .tag(let tag): filters.tags.removeAll { $0 == tag }
        case .moods: filters.moods = []
        case .kind: filters.kind = nil
        }
        await search()
    }

    /// New words: a date phrase in them is read again.
    public func wordsChanged() { readsDates = true }

    // MARK: Rows

    private func searchOnDevice(_ query: SearchQuery) {
        do {
            show(try core.store.search(query, filters: filters).map { row(for: $0, query) }, datePhrase: nil, dates: nil)
            cursor = nil
            canLoadMore = false
            offlineNotice = "You are offline: searching what is on this device."
            errorMessage = nil
        } catch {
            errorMessage = "The diary on this device could not be searched: \(error)"
        }
    }

    /// Entries the server does not have yet that match, by the device's own search.
    private func unsentMatches(_ query: SearchQuery) throws -> [LocalEntry] {
        try core.store.search(query, filters: filters).filter { [.queued, .uploading, .uploadFailed].contains($0.state) }
    }

    /// The server's search for the words and filters now, from `cursor` on.
    private func request(cursor: String?) -> SearchRequest {
        SearchRequest(
            text: text.trimmingCharacters(in: .whitespacesAndNewlines), filters: filters, timeZone: timeZone,
            readsDates: readsDates, cursor: cursor)
    }

    private func localQuery(_ words: String) -> SearchQuery {
        SearchQuery(parsing: words, dates: readsDates ? DatePhrases(now: now(), timeZone: timeZone) : nil)
    }

    private func show(_ rows: [Row], datePhrase: String?, dates: LocalDayRange?) {
        self.rows = rows
        errorMessage = nil
        var chips: [Chip] = []
        if let datePhrase, let dates { chips.append(Chip(filter: .datePhrase, label: "\(datePhrase) · \(label(dates))")) }
        if filters.from != nil || filters.to != nil {
            chips.append(Chip(filter: .days, label: label(LocalDayRange(from: filters.from, to: filters.to)!)))
        }
        chips += filters.tags.map { Chip(filter: .tag($0), label: "#\($0)") }
        if !filters.moods.isEmpty {
            chips.append(Chip(filter: .moods, label: "Mood " + filters.moods.sorted().map(String.init).joined(separator: ", ")))
        }
        if let kind = filters.kind { chips.append(Chip(filter: .kind, label: kind == .audio ? "Recordings" : "Typed")) }
        self.chips = chips
    }

    private func row(for hit: SearchHit) -> Row {
        let entry = hit.entry
        func highlight(_ field: SearchHighlight.Field) -> Highlight? {
            hit.highlights.first { $0.field == field }?.highlight
        }
        let local = LocalEntry(entry, audioPath: nil)
        return Row(
            id: entry.id, date: date(entry.createdAt, entry.timeZone),
            title: highlight(.title) ?? Highlight(text: LibraryViewModel.title(of: local), matches: []),
            snippet: highlight(.text) ?? Self.opening(of: entry.transcriptClean), tags: highlight(.tags),
            pill: StatusPill(local))
    }

    private func row(for entry: LocalEntry, _ query: SearchQuery) -> Row {
        let highlighter = Highlighter(query)
        return Row(
            id: entry.id, date: date(entry.createdAt, entry.timeZone),
            title: entry.title.flatMap(highlighter.marked) ?? Highlight(text: LibraryViewModel.title(of: entry), matches: []),
            snippet: entry.transcriptClean.flatMap { highlighter.snippet(of: $0) } ?? Self.opening(of: entry.transcriptClean),
            tags: entry.tags.isEmpty ? nil : highlighter.marked(entry.tags.joined(separator: ", ")), pill: StatusPill(entry)
        )
    }

    /// The start of a transcript, unmarked, for a hit whose words were in its title or tags.
    private static func opening(of text: String?) -> Highlight? {
        guard let text, !text.isEmpty else { return nil }
        return Highlight(text: text.count > 160 ? String(text.prefix(159)) + "…" : text, matches: [])
    }

    private func date(_ date: Date, _ zone: String) -> String {
        let zone = TimeZone(identifier: zone) ?? timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let style = Date.FormatStyle(date: .omitted, time: .omitted, locale: locale, calendar: calendar, timeZone: zone)
        return date.formatted(style.weekday(.wide).day().month(.wide).year().hour().minute())
    }

    /// "9–15 March 2026", or one day, in the person's locale.
    private func label(_ range: LocalDayRange) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        func date(_ day: LocalDay) -> Date {
            calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) ?? Date()
        }
        let style = Date.IntervalFormatStyle(
            date: .abbreviated, time: .omitted, locale: locale, calendar: calendar, timeZone: .gmt)
        if range.from == range.to {
            return date(range.from).formatted(
                Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, timeZone: .gmt))
        }
        return (date(range.from)..<date(range.to)).formatted(style)
    }

    /// A failure that says the server could not be reached (rather than that it refused).
    private static func meansUnreachable(_ error: MyDayClientError) -> Bool {
        if case .server(let status, _, _, _) = error { return status >= 500 }
        return false
    }
}
