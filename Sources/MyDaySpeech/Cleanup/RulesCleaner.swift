import Foundation

/// The embedded cleaner: deterministic rules over the recognised words and their timings.
///
/// - drops fillers (uh, um, er, ah, hmm…), and "like" / "you know" only where pauses set them apart;
/// - collapses stutters ("I I went" → "I went");
/// - ends a sentence at a pause or the engine's own end mark, and starts a paragraph at a long pause;
/// - capitalises sentence starts and "I".
/// Every output word is one of the input words, in order.
public struct RulesCleaner: TranscriptCleaner {
    /// A silence this long (seconds) between words ends a sentence.
    public var sentencePause = 0.6
    /// A silence this long starts a new paragraph.
    public var paragraphPause = 2.0
    /// A silence this long on both sides makes "like" or "you know" a filler.
    public var fillerPause = 0.25

    public init() {}

    public static let fillers: Set<String> = ["uh", "um", "uhm", "umm", "er", "erm", "ah", "eh", "hm", "hmm", "mm", "mhm"]
    /// Short words people repeat on purpose, which are not stutters.
    public static let meaningfulRepeats: Set<String> = ["no", "yes", "ha", "bye", "so", "very", "oh"]

    public func clean(_ recognition: Recognition) async throws -> String {
        cleanText(recognition.words)
    }

    public func cleanText(_ words: [RecognizedWord]) -> String {
        let kept = collapseStutters(dropFillers(words))
        var output = ""
        var startsSentence = true
        for (index, spoken) in kept.enumerated() {
            var text = spoken.word.word
            if Self.bare(text) == "i" || Self.bare(text).hasPrefix("i'") { text = "I" + text.dropFirst() }
            if startsSentence { text = text.prefix(1).uppercased() + text.dropFirst() }
            if index > 0 { output += spoken.pauseBefore >= paragraphPause ? "\n\n" : " " }
            output += text
            let endsSentence =
                Self.hasEndMark(text) || (index + 1 < kept.count ? kept[index + 1].pauseBefore >= sentencePause : true)
            if endsSentence && !Self.hasEndMark(text) {
                if Self.hasPunctuation(text) { output.removeLast() }
                output += "."
            }
            startsSentence = endsSentence
        }
        return output
    }

    /// A kept word and the longest silence between it and the kept word before it.
    private struct Spoken {
        var word: RecognizedWord
        var pauseBefore: Double
    }

    private func dropFillers(_ words: [RecognizedWord]) -> [Spoken] {
        var kept: [Spoken] = []
        // The longest gap since the last kept word: a dropped filler's own time is not a pause.
        var pause = 0.0
        var index = 0
        while index < words.count {
            let word = words[index]
            let bare = Self.bare(word.word)
            let gap = index == 0 ? 0 : word.start - words[index - 1].end
            pause = max(pause, gap)
            let pausedBefore = index == 0 || gap >= fillerPause
            var dropped = 0
            if Self.isFiller(bare, original: word.word, isFirst: index == 0) {
                dropped = 1
            } else if bare == "like", pausedBefore, index + 1 == words.count || words[index + 1].start - word.end >= fillerPause {
                dropped = 1
            } else if bare == "you", index + 1 < words.count, Self.bare(words[index + 1].word) == "know", pausedBefore,
                index + 2 == words.count || words[index + 2].start - words[index + 1].end >= fillerPause
            {
                dropped = 2
            }
            if dropped > 0 {
                index += dropped
                continue
            }
            kept.append(Spoken(word: word, pauseBefore: pause))
            pause = 0
            index += 1
        }
        return kept
    }

    private func collapseStutters(_ words: [Spoken]) -> [Spoken] {
        var kept: [Spoken] = []
        for spoken in words {
            let bare = Self.bare(spoken.word.word)
            if let previous = kept.last, Self.bare(previous.word.word) == bare, bare.count <= 3,
                !Self.meaningfulRepeats.contains(bare), !Self.hasPunctuation(previous.word.word),
                spoken.pauseBefore < sentencePause
            {
                // Keep the later one: it carries any punctuation the speaker ended on.
                kept[kept.count - 1].word = RecognizedWord(
                    word: spoken.word.word, start: previous.word.start, end: spoken.word.end)
                continue
            }
            kept.append(spoken)
        }
        return kept
    }

    /// A filler token, but not a name: a capitalised "Hmm" inside a sentence stays.
    private static func isFiller(_ bare: String, original: String, isFirst: Bool) -> Bool {
        let capitalised = original.first?.isUppercase == true
        guard !capitalised || isFirst else { return false }
        return fillers.contains(bare) || bare.wholeMatch(of: /h+m+/) != nil || bare.wholeMatch(of: /u+h+m*/) != nil
    }

    public static func bare(_ word: String) -> String {
        word.lowercased().trimmingCharacters(in: .punctuationCharacters.subtracting(CharacterSet(charactersIn: "'")))
    }

    private static func hasEndMark(_ word: String) -> Bool { word.last.map { ".!?".contains($0) } ?? false }
    private static func hasPunctuation(_ word: String) -> Bool { word.last.map { ".!?,;:".contains($0) } ?? false }
}
