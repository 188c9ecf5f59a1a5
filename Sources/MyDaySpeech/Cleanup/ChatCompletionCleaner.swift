import Foundation
import Logging

/// Cleanup by a language model behind any OpenAI-compatible `POST /v1/chat/completions`, guarded:
/// an answer that adds words, or drops too many, is thrown away and the rules' cleanup is used.
/// So is the rules' cleanup when the model cannot be reached; each fallback is counted.
package struct ChatCompletionCleaner: TranscriptCleaner {
    package let baseURL: String
    package let model: String
    package let apiKey: String?
    package var timeout: Duration = .seconds(120)
    package let fallback: RulesCleaner
    /// Told why the rules' cleanup was used instead of the model's: `unavailable`, `added_words` or `dropped_words`.
    package let onFallback: @Sendable (String) -> Void
    package let logger: Logger

    package init(
        baseURL: String, model: String, apiKey: String?, fallback: RulesCleaner = RulesCleaner(), logger: Logger,
        onFallback: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.fallback = fallback
        self.logger = logger
        self.onFallback = onFallback
    }

    package static let instructions = """
        Clean this diary transcript for readability. Remove filler words (uh/um/ah/like), add punctuation \
        and casing, preserve meaning and tone. Don't invent content. Answer with the cleaned transcript only.
        """

    package func clean(_ recognition: Recognition) async throws -> String {
        let raw = recognition.rawText
        let rules = fallback.cleanText(recognition.words)
        let answer: String
        do {
            answer = try await complete(raw)
        } catch {
            logger.warning("cleanup model unavailable; rules used", metadata: ["error": "\(error)"])
            onFallback("unavailable")
            return rules
        }
        switch FaithfulnessGuard.judge(raw: raw, cleaned: answer) {
        case .faithful:
            return answer.trimmingCharacters(in: .whitespacesAndNewlines)
        case .addsWords(let added):
            logger.warning("cleanup model added words; rules used", metadata: ["added": "\(added.count)"])
            onFallback("added_words")
        case .dropsTooMuch(let dropped):
            logger.warning("cleanup model dropped words; rules used", metadata: ["dropped": "\(dropped)"])
            onFallback("dropped_words")
        }
        return rules
    }

    private func complete(_ raw: String) async throws -> String {
        var chat = ChatCompletion(baseURL: baseURL, model: model, apiKey: apiKey)
        chat.timeout = timeout
        return try await chat.complete(instructions: Self.instructions, text: raw)
    }
}
