import ArgumentParser
import Foundation
import MyDayKit
import MyDayModels
import MyDaySearch

/// `myday search WORDS…`: the server's full-text search, best match first; offline, the entries on this device.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the diary: every word must appear (as the start of a word); \"quoted words\" in that order.",
        discussion: """
            Case and accents do not count. Date phrases such as yesterday, last week, last month or "in May" filter by \
            day (--words-only takes them as words). Matches are marked *like this*, or in bold on a terminal. \
            Without the server, searches this device's copy.
            """)

    @OptionGroup var server: ServerOptions
    @Argument(help: "What to look for.") var words: [String] = []
    @Option(help: "Only entries on or after this day (YYYY-MM-DD, in each entry's own time zone).") var from: String?
    @Option(help: "Only entries on or before this day.") var to: String?
    @Option(help: "Only entries with this tag (repeat for several; all must be there).") var tag: [String] = []
    @Option(help: "Only entries with this mood, 1-5 (repeat for several; any of them).") var mood: [Int] = []
    @Option(help: "Only recordings (audio) or typed entries (text).") var kind: EntryKind?
    @Option(help: "At most this many hits.") var limit = 20
    @Flag(help: "Take date phrases as words.") var wordsOnly = false

    func validate() throws {
        for (name, day) in [("--from", from), ("--to", to)] where day != nil && LocalDay(iso: day!) == nil {
            throw ValidationError("\(name) takes a date such as 2026-05-01.")
        }
        guard mood.allSatisfy((1...5).contains) else { throw ValidationError("--mood takes 1 to 5.") }
        guard (1...1000).contains(limit) else { throw ValidationError("--limit takes 1 to 1000.") }
        guard !words.isEmpty || from != nil || to != nil || !tag.isEmpty || !mood.isEmpty || kind != nil else {
            throw ValidationError("Say what to look for, or give a filter.")
        }
    }

    func run() async throws {
        let workspace = try Workspace(options: server)
        let filters = SearchFilters(
            from: from.flatMap(LocalDay.init(iso:)), to: to.flatMap(LocalDay.init(iso:)), tags: tag, moods: mood, kind: kind)
        let text = words.joined(separator: " ")
        let output = Output()
        let marks = isatty(STDOUT_FILENO) == 1 ? ("\u{1B}[1m", "\u{1B}[0m") : ("*", "*")
        var shown = 0
        do {
            var request = SearchRequest(text: text, filters: filters, readsDates: !wordsOnly, limit: min(limit, 100))
            repeat {
                let page = try await workspace.core.client.search(request)
                if request.cursor == nil, let phrase = page.datePhrase, let dates = page.dates {
                    output.note("Reading “\(phrase)” as \(dates.from) to \(dates.to) (--words-only takes it as words).")
                }
                for hit in page.hits.prefix(limit - shown) {
                    let entry = hit.entry
                    let title = hit.highlights.first { $0.field == .title }?.highlight
                    let snippet = hit.highlights.first { $0.field == .text }?.highlight
                    let fallback = entry.title ?? entry.transcriptClean.map { String($0.prefix(60)) } ?? ""
                    write(
                        entry.id, entry.filename, title: title ?? Highlight(text: fallback, matches: []), snippet: snippet,
                        marks: marks, to: output)
                    shown += 1
                }
                request.cursor = page.nextCursor
            } while request.cursor != nil && shown < limit
        } catch let error as MyDayClientError where error.status.map({ $0 < 500 }) ?? true {
            throw error
        } catch {
            output.note("The server could not be reached: searching the entries on this device.")
            let query = SearchQuery(
                parsing: text, dates: wordsOnly ? nil : DatePhrases(now: Date(), timeZone: .current))
            let highlighter = Highlighter(query)
            for entry in try workspace.core.store.search(query, filters: filters).prefix(limit) {
                write(
                    entry.id, entry.filename,
                    title: entry.title.flatMap(highlighter.marked) ?? Highlight(text: headline(entry), matches: []),
                    snippet: entry.transcriptClean.flatMap { highlighter.snippet(of: $0) }, marks: marks, to: output)
                shown += 1
            }
        }
        if shown == 0 { output.line("No matches.") }
    }

    /// One hit: its id, its local day and time (from its file name), its title or first words, and the passage.
    private func write(
        _ id: UUID, _ filename: String, title: Highlight, snippet: Highlight?, marks: (String, String), to output: Output
    ) {
        let day = filename.prefix(10)
        let time = filename.dropFirst(11).prefix(5).replacingOccurrences(of: "-", with: ":")
        output.line("\(id.short)  \(day) \(time)  \(Self.marked(title, marks))")
        if let snippet { output.line("    " + Self.marked(snippet, marks)) }
    }

    /// The text with each match between `marks`.
    static func marked(_ highlight: Highlight, _ marks: (String, String)) -> String {
        var result = ""
        var utf16 = Array(highlight.text.utf16)[...]
        var position = 0
        for match in highlight.matches where match.lowerBound >= position && match.upperBound <= highlight.text.utf16.count {
            result += String(decoding: utf16.prefix(match.lowerBound - position), as: UTF16.self)
            utf16 = utf16.dropFirst(match.lowerBound - position)
            result += marks.0 + String(decoding: utf16.prefix(match.count), as: UTF16.self) + marks.1
            utf16 = utf16.dropFirst(match.count)
            position = match.upperBound
        }
        return (result + String(decoding: utf16, as: UTF16.self)).replacingOccurrences(of: "\n", with: " ")
    }
}

extension EntryKind: ExpressibleByArgument {}
