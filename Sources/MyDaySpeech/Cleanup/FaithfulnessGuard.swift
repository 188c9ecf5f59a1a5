/// Checks a cleaned transcript against what was said: cleanup may drop fillers and change casing and
/// punctuation, but may not add a word, and may drop only a small share of the other words.
package enum FaithfulnessGuard {
    /// Words cleanup may drop without counting against it.
    package static let fillers: Set<String> = RulesCleaner.fillers.union([
        "like", "you", "know", "so", "well", "i", "mean", "kind", "of", "sort",
    ])

    package enum Verdict: Equatable {
        case faithful
        case addsWords([String])
        case dropsTooMuch(Int)
    }

    /// `maxDroppedShare` of the said words that are not fillers may go (repetitions, false starts).
    package static func judge(raw: String, cleaned: String, maxDroppedShare: Double = 0.1) -> Verdict {
        var said = counts(words(raw))
        var added: [String] = []
        for word in words(cleaned) {
            if let count = said[word], count > 0 {
                said[word] = count - 1
            } else {
                added.append(word)
            }
        }
        guard added.isEmpty else { return .addsWords(added) }
        let saidContent = words(raw).filter { !fillers.contains($0) }.count
        let droppedContent = said.filter { !fillers.contains($0.key) }.values.reduce(0, +)
        guard droppedContent <= max(1, Int(Double(saidContent) * maxDroppedShare)) else { return .dropsTooMuch(droppedContent) }
        return .faithful
    }

    /// Lowercased words, with punctuation and casing gone; apostrophes stay inside words.
    package static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }
            .map { $0.replacingOccurrences(of: "’", with: "'").trimmingCharacters(in: .init(charactersIn: "'")) }
            .filter { !$0.isEmpty }
    }

    private static func counts(_ words: [String]) -> [String: Int] {
        words.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}
