import Foundation
import MyDaySearch
import MyDaySpeech

/// A sentence of the day's own words, and where it was said.
struct DigestSentence: Sendable, Equatable {
    let text: String
    let entryID: UUID
    /// The second in the entry's audio where the sentence begins; nil for typed text.
    let start: Double?
    /// Written by the model from the day's words (`GroundedWriter`), not a sentence of the entry word for word.
    var byModel = false
}

/// The day in one to three of its own sentences (extractive: each is a verbatim sentence of one entry, never a word
/// changed). The sentences chosen are those that carry the most of the day's words that matter (not everyday words,
/// counted over all its entries), each taking what the ones before did not cover, so that together they cover the
/// day; they are shown in the order they were said.
enum DayDigest {
    /// One entry of the day as the digest reads it.
    struct Source: Sendable {
        let entryID: UUID
        let createdAt: Date
        let text: String
        /// The words heard in its audio (empty for a typed entry), to find where a sentence begins.
        let heard: [RecognizedWord]
        let isAudio: Bool
    }

    /// The entries of a day (with the words heard in each) that have words to quote.
    static func sources(_ day: [(entry: EntryRecord, words: [RecognizedWord])]) -> [Source] {
        day.compactMap { entry, words in
            guard let text = entry.transcriptClean, !entry.noSpeech, !text.isEmpty else { return nil }
            return Source(entryID: entry.id, createdAt: entry.createdAt, text: text, heard: words, isAudio: entry.kind == .audio)
        }
    }

    static let longest = 3
    /// Sentences shorter than this many words say too little to stand for a day.
    static let fewestWords = 4

    static func sentences(of sources: [Source]) -> [DigestSentence] {
        var candidates: [(source: Int, order: Int, text: String, firstWord: Int, words: Set<String>)] = []
        var frequency: [String: Int] = [:]
        for (index, source) in sources.enumerated() {
            var wordIndex = 0
            let sentences = split(source.text)
            for (order, sentence) in sentences.enumerated() {
                let words = SearchText.words(in: sentence).filter { $0.count > 2 && !EverydayWords.english.contains($0) }
                let count = sentence.split(whereSeparator: \.isWhitespace).count
                if count >= fewestWords || sentences.count == 1 {
                    candidates.append((index, order, sentence, wordIndex, Set(words)))
                }
                for word in Set(words) { frequency[word, default: 0] += 1 }
                wordIndex += count
            }
        }
        var chosen: [Int] = []
        var covered = Set<String>()
        var entriesUsed = Set<Int>()
        while chosen.count < longest {
            var best: (index: Int, score: Double)?
            for (index, candidate) in candidates.enumerated() where !chosen.contains(index) {
                let fresh = candidate.words.subtracting(covered)
                guard !fresh.isEmpty else { continue }
                var score =
                    fresh.reduce(0.0) { $0 + Double(frequency[$1] ?? 0) } / Double(max(candidate.words.count, 4)).squareRoot()
                // Another entry's sentence covers more of the day than a second one of the same entry.
                if entriesUsed.contains(candidate.source) { score *= 0.6 }
                if score > (best?.score ?? 0) { best = (index, score) }
            }
            guard let best else { break }
            chosen.append(best.index)
            covered.formUnion(candidates[best.index].words)
            entriesUsed.insert(candidates[best.index].source)
            // A day of one short entry needs one sentence.
            if covered.count >= frequency.count { break }
        }
        // Only everyday words all day: its first sentence.
        if chosen.isEmpty, !candidates.isEmpty { chosen = [0] }
        return chosen.map { candidates[$0] }
            .sorted { ($0.source, $0.order) < ($1.source, $1.order) }
            .map { candidate in
                let source = sources[candidate.source]
                return DigestSentence(
                    text: candidate.text, entryID: source.entryID,
                    start: source.isAudio ? start(ofWord: candidate.firstWord, in: source) : nil)
            }
    }

    /// A sentence that is not one of the entries' own (a model's), with the entry it draws on most and, for a
    /// recording, where that entry's closest sentence begins; marked as written by the model.
    static func anchored(_ text: String, in sources: [Source]) -> DigestSentence {
        let wanted = Set(SearchText.words(in: text).filter { !EverydayWords.english.contains($0) })
        var best: (source: Int, firstWord: Int, overlap: Int)?
        for (index, source) in sources.enumerated() {
            var wordIndex = 0
            for sentence in split(source.text) {
                let overlap = wanted.intersection(SearchText.words(in: sentence)).count
                if overlap > (best?.overlap ?? -1) { best = (index, wordIndex, overlap) }
                wordIndex += sentence.split(whereSeparator: \.isWhitespace).count
            }
        }
        let source = sources[best?.source ?? 0]
        return DigestSentence(
            text: text, entryID: source.entryID,
            start: source.isAudio ? start(ofWord: best?.firstWord ?? 0, in: source) : nil, byModel: true)
    }

    /// The sentences of `text`, verbatim: cut after ".", "!" or "?" followed by white space, and at paragraph breaks.
    static func split(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        var previous: Character?
        // A sentence never starts with white space, so only its end can need trimming.
        func finish() {
            let trimmed = current.last.map(isSpace) == true ? current.trimmingCharacters(in: .whitespacesAndNewlines) : current
            if !trimmed.isEmpty { sentences.append(trimmed) }
            current = ""
        }
        for character in text {
            let space = isSpace(character)
            if space, let previous, ".!?".contains(previous) || (character == "\n" && previous == "\n") {
                finish()
            } else if !(current.isEmpty && space) {
                current.append(character)
            }
            previous = character
        }
        finish()
        return sentences
    }

    /// `Character.isWhitespace`, answered without Unicode's tables for ASCII.
    static func isSpace(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return character.isWhitespace }
        return ascii == 32 || (9...13).contains(ascii)
    }

    /// When the word at `index` of the entry's text was said: its own time, or the next timed word's.
    private static func start(ofWord index: Int, in source: Source) -> Double? {
        let words = EntryWords.align(text: source.text, heard: source.heard)
        guard index < words.count else { return nil }
        return words[index...].lazy.compactMap(\.start).first
    }
}
