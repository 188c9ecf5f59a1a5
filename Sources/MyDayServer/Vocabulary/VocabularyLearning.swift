import Foundation
import MyDaySpeech

/// Which words of a person's own writing are worth teaching the recognizer: the names and rare words in their titles,
/// tags and corrections, not the everyday words it already knows.
enum VocabularyLearning {
    /// Names in a title: capitalised words (or words with letters beyond a–z) that are not everyday words, without a
    /// possessive "'s". "Dinner with Siobhan's parents" teaches "Siobhan".
    static func words(inTitle title: String) -> [String] {
        title.split(whereSeparator: { $0.isWhitespace || $0 == "/" }).compactMap { raw in
            let word = bare(String(raw))
            guard let first = word.first, first.isUppercase || word.contains(where: isBeyondASCII) else { return nil }
            return worthLearning(word) ? word : nil
        }
    }

    /// Tags that are not everyday words, as the person wrote them.
    static func words(inTags tags: [String]) -> [String] {
        tags.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.contains(" ") && worthLearning($0) }
    }

    /// The words a person typed in place of words the recognizer heard: in each changed run of words, the new words
    /// that are not everyday words. "I met Shimon" → "I met Siobhan" teaches "Siobhan"; a rewritten paragraph
    /// (more than three new words in one run) teaches nothing, as it is writing, not a correction.
    static func corrections(from before: String, to after: String) -> [String] {
        let old = before.split(whereSeparator: \.isWhitespace).map { bare(String($0)) }
        let new = after.split(whereSeparator: \.isWhitespace).map { bare(String($0)) }
        let (removed, inserted) = WordChanges.between(old, new)
        // Walk both texts: between two words they share lies a run of removed words and a run of typed ones.
        var learned: [String] = []
        var (oldIndex, newIndex) = (0, 0)
        while oldIndex < old.count || newIndex < new.count {
            var replaced = 0
            while removed.contains(oldIndex) {
                oldIndex += 1
                replaced += 1
            }
            var typed: [String] = []
            while inserted.contains(newIndex) {
                typed.append(new[newIndex])
                newIndex += 1
            }
            if replaced > 0, (1...3).contains(typed.count) { learned += typed.filter(worthLearning) }
            // The next shared word.
            oldIndex += 1
            newIndex += 1
        }
        return learned
    }

    /// The corrections of a transcript the person edited: `corrections(from:to:)` of what was heard and what it reads
    /// now, less the words the recognizer did hear somewhere in it (no correction, whatever moved).
    static func corrections(heard: String, typed: String) -> [String] {
        let heardWords = Set(heard.split(whereSeparator: \.isWhitespace).map { VocabularyStore.key(bare(String($0))) })
        return corrections(from: heard, to: typed).filter { !heardWords.contains(VocabularyStore.key($0)) }
    }

    /// What `entry` teaches as it reads now, by source: the corrections of its transcript, the names in its title and
    /// its tags.
    static func taught(by entry: EntryRecord) -> [(VocabularySource, [String])] {
        var corrections: [String] = []
        if entry.kind == .audio, let heard = entry.transcriptRaw, let typed = entry.transcriptClean {
            corrections = self.corrections(heard: heard, typed: typed)
        }
        return [(.correction, corrections), (.title, entry.title.map(words(inTitle:)) ?? []), (.tag, words(inTags: entry.tags))]
    }

    /// A word with the punctuation around it and a possessive "'s" taken off.
    static func bare(_ word: String) -> String {
        var text = word.trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.symbols).union(.whitespaces))
        for suffix in ["'s", "’s"] where text.count > suffix.count + 1 && text.hasSuffix(suffix) {
            text.removeLast(suffix.count)
        }
        return text
    }

    /// At least two characters with a letter, at most the vocabulary's longest word, and not an everyday word.
    static func worthLearning(_ word: String) -> Bool {
        word.count >= 2 && word.count <= VocabularyStore.longestWord && word.contains(where: \.isLetter)
            && !EverydayWords.english.contains(word.lowercased())
    }

    private static func isBeyondASCII(_ character: Character) -> Bool { character.isLetter && !character.isASCII }
}
