import Foundation
import MyDaySearch
import MyDaySpeech

/// A word of an entry's text as it reads now, with when it was said if it is one of the words the recognizer heard.
struct EntryWord: Sendable, Equatable {
    let text: String
    let start: Double?
    let end: Double?
    let probability: Double?
}

/// Lays the words the recognizer heard over the text as it reads now (cleaned, perhaps edited by the person), so
/// that the words that survived keep their times and the ones typed in their place have none.
enum EntryWords {
    /// The words of `text` (split at white space), in order, each with the times of the heard word it matches.
    /// Case, accents and the punctuation around a word do not count; the words both share are kept (`WordChanges`).
    static func align(text: String, heard: [RecognizedWord]) -> [EntryWord] {
        let shown = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let shownKeys = shown.map(key)
        let heardKeys = heard.map { key($0.word) }
        let (removed, inserted) = WordChanges.between(heardKeys, shownKeys)
        var next = 0
        return shown.indices.map { index in
            guard !inserted.contains(index) else { return EntryWord(text: shown[index], start: nil, end: nil, probability: nil) }
            while removed.contains(next) { next += 1 }
            let word = heard[next]
            next += 1
            return EntryWord(text: shown[index], start: word.start, end: word.end, probability: word.probability)
        }
    }

    /// What two spellings of one word share: "Monday," and "monday" match.
    private static func key(_ word: String) -> String {
        SearchText.fold(word.trimmingCharacters(in: edges))
    }

    private static let edges = CharacterSet.punctuationCharacters.union(.symbols)
}

extension RecognizedWord {
    /// The words as an entry stores them: a JSON array.
    static func list(fromJSON json: String) throws -> [RecognizedWord] {
        try JSONDecoder().decode([RecognizedWord].self, from: Data(json.utf8))
    }
}
