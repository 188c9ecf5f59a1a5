import Foundation
import MyDaySpeech

/// Whether a transcript looks broken, and why, in words for the person: one stock phrase for a long recording (what
/// Whisper writes on noise), very few words for a long recording, or the same words over and over (a loop). Such an
/// entry is marked `needs_review` and shown so, never hidden; writing its words or transcribing again clears it.
enum TranscriptReview {
    static let migration = Migration(
        version: 13, name: "transcripts that need a look",
        statements: ["ALTER TABLE entries ADD COLUMN review_reason TEXT"])

    /// Phrases Whisper is known to write on silence or noise, lowercased without punctuation.
    static let stockPhrases: Set<String> = [
        "thank you", "thank you very much", "thanks for watching", "thank you for watching", "you", "bye", "okay",
        "thank you so much for watching", "please subscribe", "subtitles by the amaraorg community",
    ]
    /// A recording at least this long (seconds) holding one stock phrase needs a look.
    static let stockPhraseSeconds = 10.0
    /// A recording at least this long (seconds) with fewer words a minute than `fewestWordsPerMinute` needs a look.
    static let fewWordsSeconds = 60.0
    static let fewestWordsPerMinute = 8.0

    static func reason(words: [RecognizedWord], clean: String, seconds: Double) -> String? {
        // No words at all is "no speech", a state of its own.
        guard !words.isEmpty else { return nil }
        let length = spokenLength(seconds: Int(seconds.rounded()))
        let phrase = clean.lowercased().filter { $0.isLetter || $0 == " " }.split(separator: " ").joined(separator: " ")
        if seconds >= stockPhraseSeconds, stockPhrases.contains(phrase) {
            return "Only “\(clean.trimmingCharacters(in: .whitespacesAndNewlines))” was heard in \(length) of audio: "
                + "recognizers write this when they hear noise. Listen again, or choose Transcribe again."
        }
        if seconds >= fewWordsSeconds, Double(words.count) / (seconds / 60) < fewestWordsPerMinute {
            return "Only \(words.count) words were heard in \(length) of audio: part of it may be missing. "
                + "Listen again, or choose Transcribe again."
        }
        if let loop = repeatedRun(words.map { RulesCleaner.bare($0.word) }) {
            return "“\(loop.words.joined(separator: " "))” comes \(loop.times) times in a row: the recognizer may have "
                + "looped. Listen again, or choose Transcribe again."
        }
        return nil
    }

    /// The first run of one to eight words said again and again right after itself: six times for one word (people
    /// say "no, no, no"), four for two, three for longer runs.
    static func repeatedRun(_ words: [String]) -> (words: [String], times: Int)? {
        for start in words.indices {
            for length in 1...8 where start + 2 * length <= words.count {
                let run = words[start..<start + length]
                var times = 1
                while start + (times + 1) * length <= words.count,
                    words[(start + times * length)..<(start + (times + 1) * length)].elementsEqual(run)
                {
                    times += 1
                }
                if times >= (length == 1 ? 6 : length == 2 ? 4 : 3) { return (Array(run), times) }
            }
        }
        return nil
    }
}
