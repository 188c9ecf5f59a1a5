import Foundation
import MyDaySearch
import MyDaySpeech

/// What the diary suggests for an entry, from its own words only; nothing is applied until the person accepts it.
struct EntrySuggestions: Sendable, Equatable {
    /// A phrase of the entry's own words, word for word.
    var title: String?
    /// The person's existing tags the entry talks about, then key words of the entry.
    var tags: [String]
    /// 1 to 5 from what the words express; nil when they say too little, or in a language without a word list.
    var mood: Int?

    static let mostTags = 4

    /// Suggestions for `text` (the entry's words), knowing the person's tags in use.
    static func make(text: String, language: String?, existingTags: [String]) -> EntrySuggestions {
        let words = MeaningWords.of(text)
        return EntrySuggestions(
            title: title(of: text), tags: tags(words: words, existing: existingTags),
            mood: isEnglish(language) ? MoodWords.mood(of: words) : nil)
    }

    /// The most telling run of two to six words of the first sentences, word for word, without everyday words at its
    /// ends: "Kayaking with Siobhan on the lake" from "Today I went kayaking with Siobhan on the lake."
    static func title(of text: String) -> String? {
        let sentences = DayDigest.split(text).prefix(3)
        var best: (text: String, score: Double)?
        for sentence in sentences {
            let tokens = sentence.split(whereSeparator: \.isWhitespace).map(String.init)
            let bare = tokens.map { $0.trimmingCharacters(in: .punctuationCharacters) }
            let content = bare.map { !$0.isEmpty && !EverydayWords.english.contains($0.lowercased()) && $0.count > 2 }
            for start in tokens.indices where content[start] {
                for end in start..<min(start + 6, tokens.count) where content[end] {
                    // A phrase never runs across a comma or an end mark inside it.
                    if tokens[start..<end].contains(where: { $0.last.map { ",;:.!?".contains($0) } ?? false }) { break }
                    let count = end - start + 1
                    guard count >= 2 || start == end else { continue }
                    let weight = Double(content[start...end].filter { $0 }.count)
                    let score = weight + (count >= 3 ? 0.5 : 0) - (count > 5 ? 0.5 : 0)
                    if score > (best?.score ?? 0) {
                        let phrase = bare[start...end].joined(separator: " ")
                        best = (phrase.prefix(1).uppercased() + phrase.dropFirst(), score)
                    }
                }
            }
        }
        return best?.text
    }

    /// The person's tags whose words the entry holds (in the order of use), then the entry's most repeated words that
    /// are not everyday words, up to `mostTags`.
    static func tags(words: [String], existing: [String]) -> [String] {
        let present = Set(words)
        var tags = existing.filter { tag in
            let parts = SearchText.words(in: tag)
            return !parts.isEmpty && parts.allSatisfy { part in present.contains(part) || present.contains(part + "s") }
        }
        var counts: [String: Int] = [:]
        for word in words where word.count > 3 && !EverydayWords.english.contains(word) { counts[word, default: 0] += 1 }
        let taken = Set(tags.flatMap { SearchText.words(in: $0) })
        for (word, count) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) })
        where count >= 2 && !taken.contains(word) {
            tags.append(word)
        }
        return Array(tags.prefix(mostTags))
    }

    private static func isEnglish(_ language: String?) -> Bool {
        guard let language else { return true }
        return OpenAITranscriptionClient.isoLanguage(language) == "en"
    }
}
