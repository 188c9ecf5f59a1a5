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
