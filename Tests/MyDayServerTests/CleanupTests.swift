import Foundation
import Logging
import Prometheus
import Testing

@testable import MyDayServer

@Suite struct FaithfulnessGuardTests {
    let raw = "um so i went to the the market and uh bought some bread"

    @Test func punctuationCasingAndFillersMayChange() {
        #expect(FaithfulnessGuard.judge(raw: raw, cleaned: "So I went to the market and bought some bread.") == .faithful)
    }

    @Test func addedWordsAreRefused() {
        #expect(
            FaithfulnessGuard.judge(raw: raw, cleaned: "So I went to the lovely market and bought some fresh bread.")
                == .addsWords(["lovely", "fresh"]))
        #expect(
            FaithfulnessGuard.judge(raw: "", cleaned: "Thank you for watching.")
                == .addsWords(["thank", "you", "for", "watching"]))
    }

    @Test func droppingMoreThanASmallShareIsRefused() {
        #expect(FaithfulnessGuard.judge(raw: raw, cleaned: "I went to the market.") == .dropsTooMuch(5))
    }
}

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

    private func cleaner(_ port: Int, _ registry: PrometheusCollectorRegistry) -> ChatCompletionCleaner {
        var cleaner = ChatCompletionCleaner(
            baseURL: "http://127.0.0.1:\(port)", model: "tidy-test", apiKey: "sk-chat", fallback: RulesCleaner(),
            metrics: PipelineMetrics(registry: registry), logger: Logger(label: "test"))
        cleaner.timeout = .seconds(5)
        return cleaner
    }

    private func fallbacks(_ registry: PrometheusCollectorRegistry) -> String {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aFaithfulAnswerIsUsed() async throws {
        let standIn = OpenAIStandIn(.json(answer("So I went to the market and bought some bread.")), path: "/v1/chat/completions")
        let registry = PrometheusCollectorRegistry()
        try await standIn.serve { port in
            let clean = try await cleaner(port, registry).clean(recognition)
            #expect(clean == "So I went to the market and bought some bread.")
        }
        let request = try #require(standIn.received.withLock { $0.first })
        #expect(request.headers[.authorization] == "Bearer sk-chat")
        let json = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(json["model"] as? String == "tidy-test")
        let messages = try #require(json["messages"] as? [[String: String]])
        #expect(messages.first?["content"]?.contains("Don't invent content") == true)
        #expect(messages.last?["content"] == "um so i went to the market and uh bought some bread")
        #expect(!fallbacks(registry).contains("myday_cleanup_fallbacks_total"))
    }

    @Test func anAnswerThatInventsIsReplacedByTheRules() async throws {
        let standIn = OpenAIStandIn(
            .json(answer("So I went to the lovely market and bought some fresh bread.")), path: "/v1/chat/completions")
        let registry = PrometheusCollectorRegistry()
        try await standIn.serve { port in
            let clean = try await cleaner(port, registry).clean(recognition)
            #expect(clean == RulesCleaner().cleanText(recognition.words))
            #expect(!clean.contains("lovely"))
        }
        #expect(fallbacks(registry).contains(#"myday_cleanup_fallbacks_total{reason="added_words"} 1"#))
    }

    @Test func anUnreachableModelFallsBackToTheRules() async throws {
        let registry = PrometheusCollectorRegistry()
        try await OpenAIStandIn(.status(503), path: "/v1/chat/completions").serve { port in
            let clean = try await cleaner(port, registry).clean(recognition)
            #expect(clean == RulesCleaner().cleanText(recognition.words))
        }
        #expect(fallbacks(registry).contains(#"myday_cleanup_fallbacks_total{reason="unavailable"} 1"#))
    }
}
