import Foundation

/// Text with the words a search matched, as UTF-16 offsets into `text` (clients style them; no markup is sent).
public struct Highlight: Sendable, Equatable {
    public let text: String
    public let matches: [Range<Int>]

    public init(text: String, matches: [Range<Int>]) {
        self.text = text
        self.matches = matches
    }
}

/// Finds where a query's terms are in a text, by the same rules the index matched them with.
public struct Highlighter: Sendable {
    private let words: [String]
    private let phrases: [[String]]

    public init(_ query: SearchQuery) {
        var words: [String] = []
        var phrases: [[String]] = []
        for term in query.terms {
            switch term {
            case .word(let word): words.append(SearchText.fold(word))
            case .phrase(let phraseWords): phrases.append(phraseWords.map(SearchText.fold))
            }
        }
        self.words = words
        self.phrases = phrases
    }

    /// The whole text with its matches marked; nil when nothing in it matched.
    public func marked(_ text: String) -> Highlight? {
        let tokens = SearchText.tokens(in: text)
        let matched = matchedTokens(tokens)
        guard !matched.isEmpty else { return nil }
        return Highlight(text: text, matches: Self.ranges(matched.map { tokens[$0.index].utf16Range }))
    }

    /// A passage of at most `maxWords` words around the place where the most different terms match, its cut ends
    /// marked with "…"; nil when nothing in the text matched.
    public func snippet(of text: String, maxWords: Int = 32) -> Highlight? {
        let tokens = SearchText.tokens(in: text)
        let matched = matchedTokens(tokens)
        guard let first = matched.first else { return nil }
        // The window of `maxWords` words holding the most different terms; the earliest such.
        var best = (start: first.index, terms: 0)
        for candidate in matched {
            let end = candidate.index + maxWords
            let terms = Set(matched.filter { $0.index >= candidate.index && $0.index < end }.map(\.term)).count
            if terms > best.terms { best = (candidate.index, terms) }
        }
        let lead = min(6, best.start, maxWords / 4)
        let startToken = best.start - lead
        let endToken = min(tokens.count, startToken + maxWords) - 1
        // Cut by UTF-16 offsets straight into the string: copying it into an array of code units cost more than
        // finding the words.
        let length = text.utf16.count
        let from = startToken == 0 ? 0 : tokens[startToken].utf16Range.lowerBound
        let to = endToken == tokens.count - 1 ? length : tokens[endToken].utf16Range.upperBound
        let prefix = from > 0 ? "…" : ""
        let suffix = to < length ? "…" : ""
        let body =
            String(
                text.utf16[text.utf16.index(text.startIndex, offsetBy: from)..<text.utf16.index(text.startIndex, offsetBy: to)])
            ?? ""
        let shift = prefix.utf16.count - from
        let inside = matched.map { tokens[$0.index].utf16Range }.filter { $0.lowerBound >= from && $0.upperBound <= to }
        return Highlight(
            text: prefix + body + suffix,
            matches: Self.ranges(inside.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }))
    }

    /// The matched tokens, in order, each with the term (its index) it matched; a phrase's term over a word's.
    private func matchedTokens(_ tokens: [SearchToken]) -> [(index: Int, term: Int)] {
        var terms = [Int?](repeating: nil, count: tokens.count)
        for (index, token) in tokens.enumerated() {
            terms[index] = words.firstIndex { token.folded.hasPrefix($0) }
        }
        for (offset, phrase) in phrases.enumerated() where !phrase.isEmpty && phrase.count <= tokens.count {
            for start in 0...(tokens.count - phrase.count)
            where zip(tokens[start..<(start + phrase.count)], phrase).allSatisfy({ $0.folded == $1 }) {
                for index in start..<(start + phrase.count) { terms[index] = words.count + offset }
            }
        }
        return terms.enumerated().compactMap { index, term in term.map { (index: index, term: $0) } }
    }

    /// Adjacent ranges of one phrase stay separate words; the list is in order.
    private static func ranges(_ ranges: [Range<Int>]) -> [Range<Int>] { ranges.sorted { $0.lowerBound < $1.lowerBound } }
}
