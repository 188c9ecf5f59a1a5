import Foundation
import Logging
import MyDaySearch
import MyDaySpeech

/// A chat model (`MYDAY_LLM_URL`) writing a day's digest or an entry's title, held to the person's words: every content
/// word of its answer (anything but everyday words) must be a word of that day's or entry's text or of the person's
/// vocabulary. An answer that is not, or no answer, leaves the words' own extractive digest or title in place.
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
    func digest(of sources: [DayDigest.Source], vocabulary: [String]) async -> [DigestSentence]? {
        guard !sources.isEmpty else { return nil }
        let text = sources.map(\.text).joined(separator: "\n\n")
        guard let answer = await ask(Self.digestInstructions, text, vocabulary: vocabulary) else { return nil }
        let sentences = DayDigest.split(answer)
        guard (1...DayDigest.longest).contains(sentences.count) else { return nil }
        return sentences.map { DayDigest.anchored($0, in: sources) }
    }

    /// The model's title for an entry; nil when it invents a word, is longer than a title, or cannot be reached.
    func title(of text: String, vocabulary: [String]) async -> String? {
        guard !text.isEmpty, let answer = await ask(Self.titleInstructions, text, vocabulary: vocabulary) else { return nil }
        let title = answer.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”'.").union(.whitespacesAndNewlines))
        let count = title.split(whereSeparator: \.isWhitespace).count
        return (1...8).contains(count) && !title.contains("\n") ? title : nil
    }

    private func ask(_ instructions: String, _ text: String, vocabulary: [String]) async -> String? {
        let answer: String
        do {
            answer = try await chat.complete(instructions: instructions, text: text)
        } catch {
            logger.warning("writing model unavailable; the words' own used", metadata: ["error": "\(error)"])
            return nil
        }
        let invented = Self.invented(in: answer, words: text, vocabulary: vocabulary)
        guard invented.isEmpty else {
            logger.warning("writing model used words nobody said; the words' own used", metadata: ["words": "\(invented.count)"])
            return nil
        }
        return answer.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The content words of `answer` (not everyday words) that are neither in `words` nor in `vocabulary`.
    static func invented(in answer: String, words: String, vocabulary: [String]) -> [String] {
        let known = Set(FaithfulnessGuard.words(words) + vocabulary.flatMap { FaithfulnessGuard.words($0) })
        return FaithfulnessGuard.words(answer).filter { !known.contains($0) && !EverydayWords.english.contains($0) }
    }
}
