import Foundation

/// A recognised word and when it was said, in seconds from the start of the recording.
public struct RecognizedWord: Sendable, Equatable, Codable {
    public let word: String
    public let start: Double
    public let end: Double

    public init(word: String, start: Double, end: Double) {
        self.word = word
        self.start = start
        self.end = end
    }
}

/// What a recognizer heard: words with timings (empty when nothing was said) and the language.
public struct Recognition: Sendable, Equatable {
    public let words: [RecognizedWord]
    public let language: String?

    public init(words: [RecognizedWord], language: String?) {
        self.words = words
        self.language = language
    }

    /// The raw transcript: the words as the engine gave them, joined.
    public var rawText: String { words.map(\.word).joined(separator: " ") }

    public var noSpeech: Bool { words.isEmpty }
}

/// Turns 16 kHz mono 16-bit PCM into words. Implementations must not invent words for silence.
public protocol SpeechRecognizer: Sendable {
    /// Recognises the PCM in `pcmFile` (raw s16le, 16 kHz, mono); `language` is the client's hint.
    func recognize(pcmFile: URL, language: String?) async throws -> Recognition
}
