import Foundation
import Observation

/// The Library screen: entries grouped by month and day (in each entry's own time zone), newest first.
@MainActor
@Observable
public final class LibraryViewModel {
    /// One entry as a row shows it.
    public struct Row: Identifiable, Equatable, Sendable {
        public let id: UUID
        public let time: String
        public let title: String
        public let duration: String?
        public let pill: StatusPill?
        /// The entry's tags and mood as the row shows them under its words ("walk, family · Mood 4 of 5"), if any.
        public var details: String? = nil
    }

    /// The entries of one day.
    public struct Day: Identifiable, Equatable, Sendable {
        /// `YYYY-MM-DD`.
        public let id: String
        public let title: String
        public let rows: [Row]
    }

    /// The days of one month.
    public struct Month: Identifiable, Equatable, Sendable {
        /// `YYYY-MM`.
        public let id: String
        public let title: String
        public let days: [Day]
    }

    public private(set) var months: [Month] = []
    public private(set) var isRefreshing = false
    public private(set) var errorMessage: String?
    /// True before the first entry exists; the screen shows its empty state.
    public var isEmpty: Bool { months.isEmpty }
    /// The search field and its hits; while it has rows, the screen shows them instead of the months.
    public let search: LibrarySearchViewModel

    private let core: ClientCore
    private let locale: Locale

    public init(core: ClientCore, locale: Locale = .current) {
        self.core = core
        self.locale = locale
        search = LibrarySearchViewModel(core: core, locale: locale)
    }

    /// Follows the local store until the task is cancelled; the screen calls it from `.task`.
    public func observe() async {
        do {
            for try await entries in core.store.observeEntries() { show(entries) }
        } catch {
            errorMessage = "The diary on this device could not be read: \(error)"
        }
    }

    /// Pull-to-refresh: sends what waits and brings in the server's changes.
    public func refresh() async {
        isRefreshing = true
        defer { isRefreshing = false }
        do {
            _ = try await core.refresh()
            errorMessage = nil
        } catch {
            errorMessage = Self.message(for: error)
        }
        show((try? core.store.entries()) ?? [])
    }

    /// "Failed — tap to retry": a refused upload goes back to the queue; a failed transcription starts again.
    public func retry(_ id: UUID) async {
        do {
            try await core.retry(id)
            errorMessage = nil
        } catch {
            errorMessage = Self.message(for: error)
        }
        show((try? core.store.entries()) ?? [])
    }

    /// Pull to refresh: a sync, then the search again while its hits show.
    public func refreshAndSearch() async {
        await refresh()
        if search.rows != nil { await search.search() }
    }

    /// `retry`, then the search again while its hits show.
    public func retryAndSearch(_ id: UUID) async {
        await retry(id)
        if search.rows != nil { await search.search() }
    }

    /// The banner's "Try again": the search that failed, else a sync.
    public func tryAgain() async {
        if search.errorMessage != nil {
            await search.search()
        } else {
            await refresh()
        }
    }

    /// Rebuilds the sections from entries (newest first, as the store answers them).
    func show(_ entries: [LocalEntry]) {
        var months: [Month] = []
        var days: [Day] = []
        var rows: [Row] = []
        var current: (month: String, day: String, date: Date, zone: TimeZone)?
        func closeDay() {
            guard let current, !rows.isEmpty else { return }
            days.append(Day(id: current.day, title: format(current.date, current.zone, .dayTitle), rows: rows))
            rows = []
        }
        func closeMonth() {
            guard let current, !days.isEmpty else { return }
            months.append(Month(id: current.month, title: format(current.date, current.zone, .monthTitle), days: days))
            days = []
        }
        for entry in entries {
            let zone = TimeZone(identifier: entry.timeZone) ?? .current
            let day = format(entry.createdAt, zone, .isoDay)
            let month = String(day.prefix(7))
            if current?.day != day { closeDay() }
            if current?.month != month { closeMonth() }
            if current?.day != day { current = (month, day, entry.createdAt, zone) }
            rows.append(
                Row(
                    id: entry.id, time: format(entry.createdAt, zone, .time), title: Self.title(of: entry),
                    duration: entry.kind == .audio ? formattedDuration(entry.duration) : nil, pill: StatusPill(entry),
                    details: Self.details(of: entry)))
        }
        closeDay()
        closeMonth()
        self.months = months
    }

    /// Tags, then the mood, joined by a middle dot; nil when the entry has neither.
    static func details(of entry: LocalEntry) -> String? {
        let parts =
            (entry.tags.isEmpty ? [] : [entry.tags.joined(separator: ", ")]) + (entry.mood.map { ["Mood \($0) of 5"] } ?? [])
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The row's words: the title, else the start of the transcript, else what the entry is. The Library, a search, a
    /// day page and Recently deleted all name an entry this way.
    static func title(of entry: LocalEntry) -> String {
        if let title = entry.title, !title.isEmpty { return title }
        if entry.noSpeech { return "No speech" }
        if let text = entry.transcriptClean?.split(whereSeparator: \.isNewline).first, !text.isEmpty {
            return text.count > 80 ? String(text.prefix(79)) + "…" : String(text)
        }
        return entry.kind == .audio ? "Voice entry" : "Note"
    }

    enum Style { case isoDay, dayTitle, monthTitle, time, moment }

    private func format(_ date: Date, _ zone: TimeZone, _ style: Style) -> String {
        Self.format(date, zone, style, locale: locale)
    }

    /// `date` as a screen shows it, in `zone` (an entry's own zone).
    static func format(_ date: Date, _ zone: TimeZone, _ style: Style, locale: Locale) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let base = Date.FormatStyle(date: .omitted, time: .omitted, locale: locale, calendar: calendar, timeZone: zone)
        switch style {
        case .isoDay: return ProfileViewModel.localDay(date, zone)
        case .dayTitle: return date.formatted(base.weekday(.wide).month(.wide).day())
        case .monthTitle: return date.formatted(base.month(.wide).year())
        case .time: return date.formatted(base.hour().minute())
        case .moment: return date.formatted(base.weekday(.wide).day().month(.wide).year().hour().minute())
        }
    }

    static func message(for error: any Error) -> String {
        switch error {
        case let error as MyDayClientError: error.description
        default: "Could not reach the server. Your entries are safe on this device."
        }
    }
}
