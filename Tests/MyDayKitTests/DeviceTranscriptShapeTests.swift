import Foundation
import Testing

@testable import MyDayKit

/// What an on-device engine reports becomes words the server accepts: one word each, with a letter or digit, in order.
@Suite struct DeviceTranscriptShapeTests {
    @Test func piecesBecomeTimedWordsAndPunctuationStaysInTheText() {
        // Given pieces as engines give them: a word, two words in one piece, punctuation alone, a piece out of order
        let pieces: [DeviceTranscript.TimedPiece] = [
            .init(text: " Today", start: 0.2, end: 0.6), .init(text: "I rowed", start: 0.7, end: 1.1),
            .init(text: ",", start: 1.1, end: 1.1), .init(text: "far.", start: 0.9, end: 1.4),
        ]
        let transcript = DeviceTranscript(
            text: "Today I rowed, far.", pieces: pieces, engine: "apple-speech", language: "en-GB")
        // Then each word stands alone with its share of the time, and nothing starts before the word before it
        #expect(transcript.words.map(\.word) == ["Today", "I", "rowed", "far."])
        let starts = transcript.words.map(\.start)
        #expect(starts.count == 4 && zip(starts, [0.2, 0.7, 0.9, 0.9]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(starts)")
        #expect(transcript.words[1].end == transcript.words[2].start)
        #expect(transcript.text == "Today I rowed, far." && transcript.language == "en-GB")
    }

    @Test func onlyPunctuationIsNoSpeech() {
        let transcript = DeviceTranscript(
            text: "…", pieces: [.init(text: "…", start: 0, end: 1)], engine: "apple-speech", language: nil)
        #expect(transcript.words.isEmpty && transcript.text.isEmpty)
    }
}
