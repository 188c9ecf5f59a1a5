import Foundation

/// Words a recognizer on the device heard in a recording, sent with the audio so the server only cleans them.
public struct DeviceTranscript: Codable, Sendable, Equatable {
    /// One word and when it was said, in seconds from the start of the recording.
    public struct Word: Codable, Sendable, Equatable {
        public var word: String
        public var start: Double
        public var end: Double

        public init(word: String, start: Double, end: Double) {
            self.word = word
            self.start = start
            self.end = end
        }
    }

    /// The words as the engine wrote them, punctuation included.
    public var text: String
    public var words: [Word]
    /// Which recognizer, e.g. `apple-speech`.
    public var engine: String
    /// BCP 47 tag of the language heard.
    public var language: String?

    public init(text: String, words: [Word], engine: String, language: String?) {
        self.text = text
        self.words = words
        self.engine = engine
        self.language = language
    }
}

/// Transcribes a finished recording on the device (Apple's Speech framework on iOS).
public protocol DeviceTranscriber: Sendable {
    /// Words heard in the finished recording `file`; throws when it cannot transcribe now (the server then does).
    func transcribe(_ file: URL, locale: Locale) async throws -> DeviceTranscript
}

extension DeviceTranscript {
    /// A piece of an engine's result and the stretch of audio it covers: a word, several words, or punctuation.
    public struct TimedPiece: Sendable, Equatable {
        public var text: String
        public var start: Double
        public var end: Double

        public init(text: String, start: Double, end: Double) {
            self.text = text
            self.start = start
            self.end = end
        }
    }

    /// A transcript in the shape the server checks: each piece is split into words at whitespace, its time shared
    /// evenly between them; pieces without a letter or digit stay in `text` only; times never run backwards.
    public init(text: String, pieces: [TimedPiece], engine: String, language: String?) {
        var words: [Word] = []
        for piece in pieces {
            let spoken = piece.text.split(whereSeparator: \.isWhitespace).filter { $0.contains { $0.isLetter || $0.isNumber } }
            guard !spoken.isEmpty else { continue }
            let start = max(piece.start, words.last?.start ?? 0, 0)
            let end = max(piece.end, start)
            let share = (end - start) / Double(spoken.count)
            for (index, word) in spoken.enumerated() {
                let wordStart = start + share * Double(index)
                words.append(Word(word: String(word), start: wordStart, end: wordStart + share))
            }
        }
        self.init(text: words.isEmpty ? "" : text, words: words, engine: engine, language: language)
    }
}

/// Whether the device can transcribe speech by itself, in words for its Settings.
public enum DeviceTranscription {
    /// Why the device cannot transcribe the person's speech by itself; nil when it can. `canTranscribe`: its own
    /// recognizer knows the language, or the language's model is there or can be downloaded.
    public static func unavailableReason(permissionDenied: Bool, canTranscribe: Bool) -> String? {
        if permissionDenied {
            return "Speech Recognition is off for My Day (Settings › Privacy & Security › Speech Recognition), so your "
                + "server transcribes."
        }
        guard canTranscribe else {
            return "Transcribing on this iPhone is not available for your language on this device; your server transcribes."
        }
        return nil
    }
}
