import Foundation

/// What the text of a search box asks for. Every word must appear, and finds the longer words it begins ("mark" finds
/// "market"; a word of one letter finds only itself); words in quotes must appear together, in that order; case and accents never count. Nothing typed is
/// an error: quotes left open, stray symbols and operators are read as words. A date phrase ("last week", "in May")
/// becomes a range of days, and filler words of a question ("what did I do with Alex") are left out when other
/// words remain.
public struct SearchQuery: Sendable, Equatable {
    public enum Term: Sendable, Equatable {
        /// A word in lower case, matched as a prefix.
        case word(String)
        /// Words in lower case, matched in a row, each whole.
        case phrase([String])
    }

    public var terms: [Term]
    /// The days a date phrase asked for.
    public var dates: LocalDayRange?
    /// That phrase, as typed.
    public var datePhrase: String?

    public init(terms: [Term], dates: LocalDayRange? = nil, datePhrase: String? = nil) {
        self.terms = terms
        self.dates = dates
        self.datePhrase = datePhrase
    }

    /// Reads `text`; date phrases are read only when `dates` is given (with the day it is for the person).
    public init(parsing text: String, dates datePhrases: DatePhrases? = nil) {
        var phrases: [[String]] = []
        var loose = ""
        var quoted: String?
        for character in text {
            if Self.quotes.contains(character) {
                if let open = quoted {
                    let words = Self.lowercasedWords(open)
                    if !words.isEmpty { phrases.append(words) }
                    quoted = nil
                } else {
                    quoted = ""
                }
                loose.append(" ")
            } else if quoted != nil {
                quoted!.append(character)
            } else {
                loose.append(character)
            }
        }
        // A quote left open: what follows it is read as loose words.
        if let open = quoted { loose += " " + open }

        var words = Self.lowercasedWords(loose)
        var dates: LocalDayRange?
        var datePhrase: String?
        if let datePhrases, let found = datePhrases.firstPhrase(in: words.map(SearchText.fold)) {
            dates = found.range
            datePhrase = words[found.at].joined(separator: " ")
            words.removeSubrange(found.at)
        }
        let meaningful = words.filter { !Self.questionWords.contains(SearchText.fold($0)) }
        if !meaningful.isEmpty || !phrases.isEmpty || dates != nil { words = meaningful }
        // Repeats are found by their folded form ("Café" and "cafe" are one word), and a search asks for at most
        // `maximumTerms` words and phrases of at most as many words: each costs the index a walk.
        var seen = Set<String>()
        let wordTerms = words.filter { seen.insert(SearchText.fold($0)).inserted }.map(Self.term(for:))
        let phraseTerms = phrases.map { Array($0.prefix(Self.maximumTerms)) }
            .filter { seen.insert($0.map(SearchText.fold).joined(separator: " ")).inserted }
            .map { $0.count == 1 ? Self.term(for: $0[0]) : .phrase($0) }
        terms = Array((wordTerms + phraseTerms).prefix(Self.maximumTerms))
        self.dates = dates
        self.datePhrase = datePhrase
    }

    /// The most words and phrases one search asks for; the words after them are not looked for.
    public static let maximumTerms = 12

    /// A word as a prefix, except a word of one letter or digit, which would begin a large share of all words: it
    /// must appear whole.
    static func term(for word: String) -> Term {
        SearchText.fold(word).count == 1 ? .phrase([word]) : .word(word)
    }

    /// No words or phrases: only filters (a date phrase, say).
    public var hasNoTerms: Bool { terms.isEmpty }

    /// The words in lower case, as typed otherwise.
    static func lowercasedWords(_ text: String) -> [String] {
        SearchText.tokens(in: text).map { token in
            let utf16 = text.utf16
            let start = utf16.index(utf16.startIndex, offsetBy: token.utf16Range.lowerBound)
            let end = utf16.index(utf16.startIndex, offsetBy: token.utf16Range.upperBound)
            return String(text[start..<end]).lowercased()
        }
    }

    private static let quotes: Set<Character> = ["\"", "“", "”", "„", "«", "»"]

    /// Words that only shape a question; a search made of nothing else keeps them.
    static let questionWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "about", "from", "by", "i", "me",
        "my", "we", "us", "our", "you", "your", "it", "its", "is", "was", "were", "are", "be", "been", "am", "do", "did",
        "does", "what", "when", "where", "which", "who", "how", "why", "that", "there", "have", "has", "had",
        // What is left of contractions ("it's", "don't", "I'll").
        "s", "t", "d", "ll", "re", "ve", "m",
    ]
}

extension SearchQuery {
    /// The terms as an SQLite FTS5 expression limited to `columns`: words as prefixes, phrases exact, all required.
    /// Every word is quoted, so nothing typed is read as FTS5 syntax. Nil without terms.
    public func fts5Expression(columns: [String]) -> String? {
        guard !terms.isEmpty else { return nil }
        let parts = terms.map { term in
            switch term {
            case .word(let word): "\"\(word)\"*"
            case .phrase(let words): "\"\(words.joined(separator: " "))\""
            }
        }
        return "{\(columns.joined(separator: " "))} : (\(parts.joined(separator: " AND ")))"
    }

    /// The terms as PostgreSQL `to_tsquery` text: words as prefixes (`:*`), phrases with `<->`, all required (`&`);
    /// with `weights` (`"AB"`: titles and tags), matching only words of those weights. With `wholeWords`, words match
    /// only whole (what matches is a part of what the prefixes match, found without reading every word they begin).
    /// Nil without terms.
    public func tsQuery(weights: String? = nil, wholeWords: Bool = false) -> String? {
        guard !terms.isEmpty else { return nil }
        let only = weights ?? ""
        return terms.map { term in
            switch term {
            case .word(let word): wholeWords ? "'\(word)'\(only.isEmpty ? "" : ":\(only)")" : "'\(word)':*\(only)"
            case .phrase(let words):
                "(" + words.map { "'\($0)'" + (only.isEmpty ? "" : ":\(only)") }.joined(separator: " <-> ") + ")"
            }
        }.joined(separator: " & ")
    }
}
