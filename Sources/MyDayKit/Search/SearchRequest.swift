import Foundation
import MyDayModels
import MyDaySearch

/// What a person filters a search by, besides its words; every filter set must hold.
public struct SearchFilters: Sendable, Equatable {
    /// Days in each entry's own time zone, both included.
    public var from: LocalDay?
    public var to: LocalDay?
    /// Each must be among the entry's tags.
    public var tags: [String] = []
    /// The entry's mood must be one of these.
    public var moods: [Int] = []
    public var kind: EntryKind?

    /// Whether entries of `kind` alone are shown.
    public func showsOnly(_ kind: EntryKind) -> Bool { self.kind == kind }

    /// Shows entries of `kind` alone, or of every kind again.
    public mutating func show(only kind: EntryKind, _ isOn: Bool) {
        self.kind = isOn ? kind : nil
    }

    /// Adds `mood` to the moods shown, or takes it away; they stay in order.
    public mutating func show(mood: Int, _ isOn: Bool) {
        let others = moods.filter { $0 != mood }
        moods = isOn ? (others + [mood]).sorted() : others
    }

    public init(from: LocalDay? = nil, to: LocalDay? = nil, tags: [String] = [], moods: [Int] = [], kind: EntryKind? = nil) {
        self.from = from
        self.to = to
        self.tags = tags
        self.moods = moods
        self.kind = kind
    }

    public var isEmpty: Bool { self == SearchFilters() }
}

/// One page of a search as the client asks the server for it.
public struct SearchRequest: Sendable, Equatable {
    public var text: String
    public var filters: SearchFilters
    /// The searcher's time zone, where "today" and "last week" are counted.
    public var timeZone: TimeZone
    /// False takes date phrases ("yesterday") as words.
    public var readsDates: Bool
    /// The previous page's `nextCursor`; nil for the first page.
    public var cursor: String?
    public var limit: Int

    public init(
        text: String, filters: SearchFilters = SearchFilters(), timeZone: TimeZone = .current, readsDates: Bool = true,
        cursor: String? = nil, limit: Int = 20
    ) {
        self.text = text
        self.filters = filters
        self.timeZone = timeZone
        self.readsDates = readsDates
        self.cursor = cursor
        self.limit = limit
    }
}

/// Where a search found its words in an entry: a field and the words marked in it.
public struct SearchHighlight: Sendable, Equatable {
    public enum Field: String, Sendable { case title, tags, text }
    public var field: Field
    /// The field's text (the transcript as a passage), with the matches as UTF-16 offsets into it.
    public var highlight: Highlight

    public init(field: Field, highlight: Highlight) {
        self.field = field
        self.highlight = highlight
    }
}

/// One found entry.
public struct SearchHit: Sendable, Equatable {
    public var entry: ServerEntry
    public var highlights: [SearchHighlight]

    public init(entry: ServerEntry, highlights: [SearchHighlight]) {
        self.entry = entry
        self.highlights = highlights
    }
}

/// One page of hits, best first, and how the words were read.
public struct SearchPage: Sendable, Equatable {
    public var hits: [SearchHit]
    public var nextCursor: String?
    /// The words read as a date filter ("last week") and its days, when there were such words.
    public var datePhrase: String?
    public var dates: LocalDayRange?

    public init(hits: [SearchHit], nextCursor: String?, datePhrase: String? = nil, dates: LocalDayRange? = nil) {
        self.hits = hits
        self.nextCursor = nextCursor
        self.datePhrase = datePhrase
        self.dates = dates
    }
}
