import Foundation

/// A recognised word and when it was said, in seconds from the start of the recording.
package struct RecognizedWord: Sendable, Equatable, Codable {
    package let word: String
    package let start: Double
    package let end: Double
    /// How sure the engine was of the word, 0 to 1; nil when the engine does not say.
    package let probability: Double?

    package init(word: String, start: Double, end: Double, probability: Double? = nil) {
        self.word = word
        self.start = start
        self.end = end
        self.probability = probability
    }

    private enum CodingKeys: String, CodingKey {
        case word, start, end
        case probability = "p"
    }
}

/// What a recognizer heard: words with timings (empty when nothing was said) and the language.
package struct Recognition: Sendable, Equatable {
    package let words: [RecognizedWord]
    package let language: String?
    /// How sure the engine was of the language it detected, 0 to 1; nil when it was told the language or does not say.
    package let languageProbability: Double?

    package init(words: [RecognizedWord], language: String?, languageProbability: Double? = nil) {
        self.words = words
        self.language = language
        self.languageProbability = languageProbability
    }

    /// The raw transcript: the words as the engine gave them, joined.
    package var rawText: String { words.map(\.word).joined(separator: " ") }

    package var noSpeech: Bool { words.isEmpty }
}

/// Told the share of a recording an engine has heard so far, 0 to 1, as it goes (from any thread).
package typealias RecognitionProgress = @Sendable (Double) -> Void

/// Turns 16 kHz mono 16-bit PCM into words. Implementations must not invent words for silence.
package protocol SpeechRecognizer: Sendable {
    /// Recognises the PCM in `pcmFile` (raw s16le, 16 kHz, mono); `language` is the client's hint; `prompt` holds
    /// words the recording may contain (names, spellings), for engines that take one. Engines that can tell how far
    /// they are tell `progress`; others never call it.
    func recognize(pcmFile: URL, language: String?, prompt: String?, progress: @escaping RecognitionProgress) async throws
        -> Recognition
}

extension SpeechRecognizer {
    package func recognize(pcmFile: URL, language: String?, prompt: String? = nil) async throws -> Recognition {
        try await recognize(pcmFile: pcmFile, language: language, prompt: prompt, progress: { _ in })
    }
}
