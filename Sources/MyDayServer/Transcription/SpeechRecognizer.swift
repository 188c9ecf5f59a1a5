import Foundation

/// A recognised word and when it was said, in seconds from the start of the recording.
struct RecognizedWord: Sendable, Equatable, Codable {
    let word: String
    let start: Double
    let end: Double
}

/// What a recognizer heard: words with timings (empty when nothing was said) and the language.
struct Recognition: Sendable, Equatable {
    let words: [RecognizedWord]
    let language: String?
    /// The raw transcript: the words as the engine gave them, joined.
    var rawText: String { words.map(\.word).joined(separator: " ") }

    var noSpeech: Bool { words.isEmpty }
}

/// Turns 16 kHz mono 16-bit PCM into words. Implementations must not invent words for silence.
protocol SpeechRecognizer: Sendable {
    /// Recognises the PCM in `pcmFile` (raw s16le, 16 kHz, mono); `language` is the client's hint.
    func recognize(pcmFile: URL, language: String?) async throws -> Recognition
}
