import Foundation
import Logging
import MyDaySearch
import MyDaySpeech

/// A chat model (`MYDAY_LLM_URL`) writing a day's digest or an entry's title, held to the person's words: every word of
/// its answer must be a word of that day's or entry's text, or one of the few words that only join others
/// (`joiningWords`). An answer that is not, or no answer, leaves the words' own extractive digest or title in place.
struct GroundedWriter: Sendable {
    let chat: ChatCompletion
    let logger: Logger

    static let digestInstructions = """
        Summarise this diary day in one to three short sentences, in the first person, using only words that appear \
        in the entries. Do not add anything that is not said there. Answer with the sentences only.
        """
    static let titleInstructions = """
        Give this diary entry a title of two to six words, using only words that appear in it. Answer with the title only.
        """

    /// The model's digest of a day, each sentence anchored to the entry it draws on most; nil when it invents a word,
    /// says nothing, or cannot be reached.
    func digest(of sources: [DayDigest.Source]) async -> [DigestSentence]? {
        guard !sources.isEmpty else { return nil }
        let text = sources.map(\.text).joined(separator: "\n\n")
        guard let answer = await ask(Self.digestInstructions, text) else { return nil }
        let sentences = DayDigest.split(answer)
        guard (1...DayDigest.longest).contains(sentences.count) else { return nil }
        return sentences.map { DayDigest.anchored($0, in: sources) }
    }

    /// The model's title for an entry; nil when it invents a word, is longer than a title, or cannot be reached.
    func title(of text: String) async -> String? {
        guard !text.isEmpty, let answer = await ask(Self.titleInstructions, text) else { return nil }
        let title = answer.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”'.").union(.whitespacesAndNewlines))
        let count = title.split(whereSeparator: \.isWhitespace).count
        return (1...8).contains(count) && !title.contains("\n") ? title : nil
    }

    private func ask(_ instructions: String, _ text: String) async -> String? {
        let answer: String
        do {
            answer = try await chat.complete(instructions: instructions, text: text)
        } catch {
            logger.warning("writing model unavailable; the words' own used", metadata: ["error": "\(error)"])
            return nil
        }
        let invented = Self.invented(in: answer, words: text)
        guard invented.isEmpty else {
            logger.warning("writing model used words nobody said; the words' own used", metadata: ["words": "\(invented.count)"])
            return nil
        }
        return answer.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The words of `answer` that are neither in `words` nor joining words.
    static func invented(in answer: String, words: String) -> [String] {
        let known = Set(FaithfulnessGuard.words(words))
        return FaithfulnessGuard.words(answer).filter { !known.contains($0) && !joiningWords.contains($0) }
    }

    /// Words a digest in the first person needs to join the day's own ("Rowed across the harbour" → "I rowed across
    /// the harbour"): pronouns, articles, "be" and "have", prepositions and conjunctions. Nothing that could say
    /// something of its own: no noun, adjective or verb of meaning, no number, no "not" or "never".
    static let joiningWords: Set<String> = [
        "a", "an", "the", "i", "me", "my", "we", "us", "our", "you", "your", "he", "him", "his", "she", "her", "it",
        "its", "they", "them", "their", "this", "that", "these", "those", "there", "here", "who", "which",
        "am", "is", "are", "was", "were", "be", "been", "has", "have", "had",
        "and", "but", "or", "so", "then", "also", "as", "of", "to", "in", "on", "at", "by", "for", "with", "from",
        "about", "into", "onto", "over", "after", "before", "while", "when", "up", "out", "off", "through",
    ]
}
