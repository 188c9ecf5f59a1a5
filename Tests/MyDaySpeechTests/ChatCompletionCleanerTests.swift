import Foundation
import HTTPTypes
import Logging
import OpenAIStandIns
import Synchronization
import Testing

@testable import MyDaySpeech

@Suite struct ChatCompletionCleanerTests {
    private let recognition = Recognition(
        words: ["um", "so", "i", "went", "to", "the", "market", "and", "uh", "bought", "some", "bread"].enumerated().map {
            RecognizedWord(word: $0.element, start: Double($0.offset) * 0.4, end: Double($0.offset) * 0.4 + 0.3)
        },
        language: "en")

    private func answer(_ content: String) -> String {
        let escaped = String(decoding: try! JSONEncoder().encode(content), as: UTF8.self)
        return #"{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"# + escaped
            + #"},"finish_reason":"stop"}]}"#
    }

    /// A cleaner of the stand-in on `port` that notes each fallback's reason in `fallbacks`.
    private func cleaner(_ port: Int, _ fallbacks: Fallbacks) -> ChatCompletionCleaner {
        var cleaner = ChatCompletionCleaner(
            baseURL: "http://127.0.0.1:\(port)", model: "tidy-test", apiKey: "sk-chat", logger: Logger(label: "test"),
            onFallback: { reason in fallbacks.reasons.withLock { $0.append(reason) } })
        cleaner.timeout = .seconds(600)
        return cleaner
    }

    final class Fallbacks: Sendable {
        let reasons = Mutex<[String]>([])
        var all: [String] { reasons.withLock { $0 } }
    }

    @Test func aFaithfulAnswerIsUsed() async throws {
        let standIn = OpenAIStandIn(.json(answer("So I went to the market and bought some bread.")), path: "/v1/chat/completions")
        let fallbacks = Fallbacks()
        try await standIn.serve { port in
            let clean = try await cleaner(port, fallbacks).clean(recognition)
            #expect(clean == "So I went to the market and bought some bread.")
        }
        let request = try #require(standIn.received.withLock { $0.first })
        #expect(request.headers[.authorization] == "Bearer sk-chat")
        let json = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(json["model"] as? String == "tidy-test")
        let messages = try #require(json["messages"] as? [[String: String]])
        #expect(messages.first?["content"]?.contains("Don't invent content") == true)
        #expect(messages.last?["content"] == "um so i went to the market and uh bought some bread")
        #expect(fallbacks.all.isEmpty)
    }

    @Test func anAnswerThatInventsIsReplacedByTheRules() async throws {
        let standIn = OpenAIStandIn(
            .json(answer("So I went to the lovely market and bought some fresh bread.")), path: "/v1/chat/completions")
        let fallbacks = Fallbacks()
        try await standIn.serve { port in
            let clean = try await cleaner(port, fallbacks).clean(recognition)
            #expect(clean == RulesCleaner().cleanText(recognition.words))
            #expect(!clean.contains("lovely"))
        }
        #expect(fallbacks.all == ["added_words"])
    }

    @Test func anUnreachableModelFallsBackToTheRules() async throws {
        let fallbacks = Fallbacks()
        try await OpenAIStandIn(.status(503), path: "/v1/chat/completions").serve { port in
            let clean = try await cleaner(port, fallbacks).clean(recognition)
            #expect(clean == RulesCleaner().cleanText(recognition.words))
        }
        #expect(fallbacks.all == ["unavailable"])
    }
}
