import Foundation

/// The embedded cleaner: deterministic rules over the recognised words and their timings.
///
/// - drops fillers (uh, um, er, ah, hmm…) with the commas that set them apart, and "like" / "you know" only
///   where pauses set them apart;
/// - collapses stutters ("I I went" → "I went");
/// - ends a sentence at the engine's own end marks; for an engine that writes none (PocketSphinx), at pauses too;
/// - starts a paragraph at a long pause after a sentence's end;
/// - capitalises sentence starts and "I"; keeps abbreviations ("Mr.") and numbers as the engine wrote them.
/// Every output word is one of the input words, in order.
package struct RulesCleaner: TranscriptCleaner {
    /// A silence this long (seconds) between words ends a sentence.
    package var sentencePause = 0.6
    /// A silence this long starts a new paragraph.
    package var paragraphPause = 2.0
    /// A silence this long on both sides makes "like" or "you know" a filler.
    package var fillerPause = 0.25

    package init() {}

    package static let fillers: Set<String> = ["uh", "um", "uhm", "umm", "er", "erm", "ah", "eh", "hm", "hmm", "mm", "mhm"]
    /// Short words people repeat on purpose, which are not stutters.
    package static let meaningfulRepeats: Set<String> = ["no", "yes", "ha", "bye", "so", "very", "oh"]

    package func clean(_ recognition: Recognition) async throws -> String {
        cleanText(recognition.words)
    }

    package func cleanText(_ words: [RecognizedWord]) -> String {
        // An engine that writes punctuation (Whisper) has placed its sentence ends; pauses only make paragraphs.
        let punctuated = words.contains { Self.hasPunctuation($0.word) }
        let kept = collapseStutters(dropFillers(words))
        var output = ""
        var startsSentence = true
        for (index, spoken) in kept.enumerated() {
            var text = spoken.word.word
            if Self.bare(text) == "i" || Self.bare(text).hasPrefix("i'") { text = "I" + text.dropFirst() }
            if startsSentence { text = text.prefix(1).uppercased() + text.dropFirst() }
            if index > 0 { output += startsSentence && spoken.pauseBefore >= paragraphPause ? "\n\n" : " " }
            output += text
            let pauseAfter = index + 1 < kept.count ? kept[index + 1].pauseBefore : .infinity
            let endsSentence = Self.hasEndMark(text) || pauseAfter == .infinity || (!punctuated && pauseAfter >= sentencePause)
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
            if Self.isFiller(bare, original: word.word, startsSentence: index == 0 || Self.hasEndMark(words[index - 1].word)) {
                dropped = 1
                if let last = kept.indices.last { kept[last].word = Self.taking(punctuationOf: word.word, onto: kept[last].word) }
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

    /// A filler token, but not a name: a capitalised "Hmm" inside a sentence stays; at a sentence's start it goes.
    private static func isFiller(_ bare: String, original: String, startsSentence: Bool) -> Bool {
        let capitalised = original.first?.isUppercase == true
        guard !capitalised || startsSentence else { return false }
        return fillers.contains(bare) || bare.wholeMatch(of: /h+m+/) != nil || bare.wholeMatch(of: /u+h+m*/) != nil
    }

    /// `previous` once the filler `filler` after it is dropped: "think, um, we" loses the comma pair that set the
    /// filler apart, and "home, um." ends its sentence at "home.".
    private static func taking(punctuationOf filler: String, onto previous: RecognizedWord) -> RecognizedWord {
        guard let mark = filler.last, ".!?,".contains(mark), previous.word.last.map({ ",;:".contains($0) }) == true else {
            guard let mark = filler.last, ".!?".contains(mark), !hasEndMark(previous.word), previous.word.last != "."
            else { return previous }
            return RecognizedWord(word: previous.word + String(mark), start: previous.start, end: previous.end)
        }
        let stripped = String(previous.word.dropLast())
        let word = ".!?".contains(mark) ? stripped + String(mark) : stripped
        return RecognizedWord(word: word, start: previous.start, end: previous.end)
    }

    /// Abbreviations whose period ends no sentence.
    static let abbreviations: Set<String> = [
        "mr.", "mrs.", "ms.", "dr.", "st.", "vs.", "prof.", "jr.", "sr.", "e.g.", "i.e.", "a.m.", "p.m.",
    ]

    package static func bare(_ word: String) -> String {
        word.lowercased().trimmingCharacters(in: .punctuationCharacters.subtracting(CharacterSet(charactersIn: "'")))
    }

    private static func hasEndMark(_ word: String) -> Bool {
        (word.last.map { ".!?".contains($0) } ?? false) && !abbreviations.contains(word.lowercased())
    }
    private static func hasPunctuation(_ word: String) -> Bool { word.last.map { ".!?,;:".contains($0) } ?? false }
}
