import Foundation
import MyDayModels
import Observation

/// "On this day" on Home: the entries of the same date a week, a month and each year before, each opening its day.
@MainActor
@Observable
public final class OnThisDayViewModel {
    /// A day before, as Home shows it.
    public struct Memory: Sendable, Equatable, Identifiable {
        /// `YYYY-MM-DD`: the day page it opens.
        public let date: String
        /// "A week ago", "A month ago", "1 year ago", "3 years ago".
        public let heading: String
        /// The first entry's title, or the opening of its words.
        public let preview: String
        public let entryCount: Int
        public var id: String { date }
    }

    public private(set) var memories: [Memory] = []
    public private(set) var errorMessage: String?

    private let core: ClientCore
    private let timeZone: TimeZone

    public init(core: ClientCore, timeZone: TimeZone = .current) {
        self.core = core
        self.timeZone = timeZone
    }

    /// Loads today's; Home shows the section only when `memories` is not empty.
    public func load() async {
        do {
            memories = try await core.client.onThisDay(nil, timeZone: timeZone.identifier).map(Self.memory)
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// How Home (and the CLI) says a day before.
    public nonisolated static func memory(_ day: PastDay) -> Memory {
        let heading =
            switch day.unit {
            case .week: day.count == 1 ? "A week ago" : "\(day.count) weeks ago"
            case .month: day.count == 1 ? "A month ago" : "\(day.count) months ago"
            case .year: counted(day.count, "year", "years") + " ago"
            }
        let first = day.entries.first
        // The title, else the words, else what it is (a recording without words yet), as the web app says it.
        let words =
            [first?.title, first?.transcriptClean].compactMap { $0 }.first { !$0.isEmpty }
            ?? (first?.kind == .audio ? "A recording" : "")
        let preview = words.count > 120 ? String(words.prefix(119)) + "…" : words
        return Memory(date: day.date, heading: heading, preview: preview, entryCount: day.entries.count)
    }
}
