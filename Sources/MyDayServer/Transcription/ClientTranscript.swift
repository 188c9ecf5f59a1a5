import Foundation
import MyDayAPI
import MyDaySpeech

/// Words a client's own recognizer heard, checked, so the server only cleans them instead of recognising again.
struct ClientTranscript: Sendable, Equatable, Codable {
    /// The text as the client's engine wrote it: kept as the raw transcript.
    let text: String
    let words: [RecognizedWord]
    let engine: String
    let language: String?

    /// Checks what the request can show on its own: each word has a letter or digit and sane times, in order,
    /// and the text holds exactly those words. Edge punctuation is taken off the words, as recognizers here give them.
    static func validated(_ body: Components.Schemas.DeviceTranscript) throws -> ClientTranscript {
        try Validation.printable(body.text, field: "transcript.text", lines: true)
        guard body.words.count <= 50_000, body.text.unicodeScalars.count <= 200_000,
            body.words.allSatisfy({ $0.word.unicodeScalars.count <= 100 })
        else {
            throw APIError.unprocessable(
                "A transcript may have 50000 words of up to 100 characters, and 200000 characters of text.")
        }
        var words: [RecognizedWord] = []
        words.reserveCapacity(body.words.count)
        for (index, timed) in body.words.enumerated() {
            let word = timed.word.trimmingCharacters(in: .punctuationCharacters.union(.whitespacesAndNewlines))
            guard word.contains(where: { $0.isLetter || $0.isNumber }), !word.contains(where: \.isWhitespace) else {
                throw APIError.unprocessable("'transcript.words[\(index)].word' must be one word with a letter or digit.")
            }
            guard timed.start.isFinite, timed.end.isFinite, timed.start >= 0, timed.end >= timed.start else {
                throw APIError.unprocessable("'transcript.words[\(index)]' must have 0 <= start <= end.")
            }
            if let previous = words.last, timed.start < previous.start {
                throw APIError.unprocessable("'transcript.words' must be in the order they were said.")
            }
            words.append(RecognizedWord(word: word, start: timed.start, end: timed.end))
        }
        guard letters(of: body.text) == letters(of: words.map(\.word).joined()) else {
            throw APIError.unprocessable("'transcript.text' must be the transcript's words, in order.")
        }
        let engine = body.engine.trimmingCharacters(in: .whitespaces)
        guard !engine.isEmpty, engine.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw APIError.unprocessable("'transcript.engine' must be a name such as apple-speech.")
        }
        return ClientTranscript(
            text: words.isEmpty ? "" : body.text, words: words, engine: engine, language: try Validation.language(body.language))
    }

    /// Rejects words said after the audio ends (a little slack allows for rounding in the client's clock).
    func check(fitsWithin duration: Double) throws {
        guard let last = words.map(\.end).max(), last > duration + Self.timingSlack else { return }
        throw APIError.unprocessable(
            "'transcript.words' end at \(last) s, after the audio's \(String(format: "%.1f", duration)) s.")
    }

    static let timingSlack = 0.5

    /// The letters and digits of `text`, lowercased: the words with spacing, punctuation and case set aside.
    private static func letters(of text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}
