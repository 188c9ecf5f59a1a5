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
        // One word's passage is around its first match: the words of a long text's first kilobyte are often enough.
        if phrases.isEmpty, words.count == 1, let head = SearchText.leadingASCIITokens(in: text, bytes: 1024),
            let passage = snippet(of: text, tokens: head, allTokens: false, maxWords: maxWords)
        {
            return passage
        }
        return snippet(of: text, tokens: SearchText.tokens(in: text), allTokens: true, maxWords: maxWords)
    }

    /// The passage from `tokens`, the text's first words or all of them; nil when nothing matched, or when the
    /// passage might reach past the first words.
    private func snippet(of text: String, tokens: [SearchToken], allTokens: Bool, maxWords: Int) -> Highlight? {
        let matched = matchedTokens(tokens)
        guard !matched.isEmpty else { return nil }
        // The window of `maxWords` words holding the most different terms; the earliest such. Two ends slide along
        // the matches, counting each term's matches between them.
        var best = (start: matched[0].index, terms: 0)
        var counts = [Int](repeating: 0, count: words.count + phrases.count)
        var distinct = 0
        var end = 0
        for candidate in matched {
            while end < matched.count, matched[end].index < candidate.index + maxWords {
                if counts[matched[end].term] == 0 { distinct += 1 }
                counts[matched[end].term] += 1
                end += 1
            }
            if distinct > best.terms { best = (candidate.index, distinct) }
            counts[candidate.term] -= 1
            if counts[candidate.term] == 0 { distinct -= 1 }
        }
        let lead = min(6, best.start, maxWords / 4)
        let startToken = best.start - lead
        // From the first words alone, only a passage that ends before the last of them is sure.
        guard allTokens || startToken + maxWords < tokens.count else { return nil }
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
