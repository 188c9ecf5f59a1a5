import Foundation
import MyDaySearch
import MyDaySpeech

/// The people, places and topics a span of entries mentions most, each a word or words of the entries themselves.
///
/// People and places are capitalised names that are not everyday words ("Siobhan", "Dún Laoghaire"), told apart by the
/// words around them: "in", "at", "from", "went to" make a place; "with", "told", "talked to", a possessive make a
/// person. A name with no telling words counts as a person. Topics are the person's tags and the other words they
/// come back to in more than one entry. Each is counted once per entry that mentions it.
struct Mentions: Sendable, Equatable {
    struct Mention: Sendable, Equatable {
        let text: String
        let count: Int
    }

    let people: [Mention]
    let places: [Mention]
    let topics: [Mention]

    static let most = 10

    /// One entry as mentions need it.
    struct Source: Sendable {
        let text: String
        let tags: [String]
    }

    init(_ entries: [Source]) {
        let sentences = entries.map { Self.sentenceWords($0.text) }
        let known = Self.capitalisedInside(sentences)
        let names = sentences.map { Self.names(in: $0, known: known) }
        var counts: [String: (forms: [String: Int], entries: Int, person: Int, place: Int)] = [:]
        for found in names {
            for key in Set(found.map { $0.text.lowercased() }) { counts[key, default: ([:], 0, 0, 0)].entries += 1 }
            for name in found {
                let key = name.text.lowercased()
                counts[key]!.forms[name.text, default: 0] += 1
                switch name.kind {
                case .person: counts[key]!.person += 1
                case .place: counts[key]!.place += 1
                case nil: break
                }
            }
        }
        func ranked(_ isPlace: Bool) -> [Mention] {
            let chosen = counts.values.filter { ($0.place > $0.person) == isPlace }.map { value in
                Mention(text: value.forms.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key, count: value.entries)
            }
            return Self.top(chosen)
        }
        people = ranked(false)
        places = ranked(true)
        topics = Self.topics(entries, names: Set(counts.keys))
    }

    private static func top(_ mentions: [Mention]) -> [Mention] {
        Array(mentions.sorted { ($0.count, $1.text) > ($1.count, $0.text) }.prefix(most))
    }

    /// Tags by the entries that carry them, then words of more than three letters, not everyday words nor parts of
    /// names, that more than one entry holds (a word and its plural count as one).
    private static func topics(_ entries: [Source], names: Set<String>) -> [Mention] {
        var tagCounts: [String: Int] = [:]
        for entry in entries {
            for tag in Set(entry.tags) { tagCounts[tag, default: 0] += 1 }
        }
        let nameWords = Set(names.flatMap { SearchText.words(in: $0) })
        let tagWords = Set(tagCounts.keys.flatMap { SearchText.words(in: $0) })
        let perEntry = entries.map { entry in
            Set(
                MeaningWords.of(entry.text).filter {
                    $0.count > 3 && isAllLetters($0) && !EverydayWords.english.contains($0)
                        && !notTopics.contains($0) && !$0.hasSuffix("ed") && !nameWords.contains($0) && !tagWords.contains($0)
                })
        }
        let all = perEntry.reduce(into: Set<String>()) { $0.formUnion($1) }
        var wordCounts: [String: Int] = [:]
        for words in perEntry {
            for word in Set(words.map { $0.hasSuffix("s") && all.contains(String($0.dropLast())) ? String($0.dropLast()) : $0 }) {
                wordCounts[word, default: 0] += 1
            }
        }
        let tags = tagCounts.map { Mention(text: $0.key, count: $0.value) }
        let words = wordCounts.filter { $0.value > 1 }.map { Mention(text: $0.key, count: $0.value) }
        return Array((top(tags) + top(words)).prefix(most))
    }

    enum Kind { case person, place }

    /// A name as the text writes it, and what the words around it make it.
    struct Name: Equatable {
        let text: String
        let kind: Kind?
    }

    private static let placeBefore: Set<String> = [
        "in", "at", "from", "near", "into", "around", "across", "through", "towards", "toward", "via", "visiting",
    ]
    private static let personBefore: Set<String> = [
        "with", "met", "saw", "called", "told", "asked", "texted", "thanked", "hugged", "helped", "dear", "mum", "dad",
        "uncle", "aunt", "auntie", "grandma", "grandpa", "brother", "sister", "son", "daughter", "wife", "husband",
        "partner", "cousin", "friend", "boss", "colleague", "neighbour", "neighbor",
    ]
    private static let placeVerbs: Set<String> = [
        "went", "go", "going", "goes", "drove", "drive", "driving", "flew", "fly", "flying", "walked", "walk", "move",
        "moved", "moving", "travelled", "traveled", "back", "trip", "came", "come", "got", "train", "ferry", "flight",
        "way", "road", "holiday", "visit", "returned", "cycled", "sailed",
    ]
    /// Verbs after which "to" leads to a person: "talked to Sam".
    private static let personVerbs: Set<String> = [
        "talked", "talk", "spoke", "speak", "said", "say", "wrote", "write", "sent", "send", "gave", "give", "listened",
        "lent", "showed", "introduced", "explained", "replied", "married", "engaged", "next", "thanks",
    ]
    /// Words too common to be a topic, though not in the everyday list.
    private static let notTopics: Set<String> = [
        "half", "told", "said", "took", "made", "came", "went", "make", "take", "much", "many", "more", "most", "some",
        "next", "still", "even", "only", "also", "really", "very", "just", "move", "thing", "things", "lots", "little",
        "around", "another", "every", "something", "nothing", "anything", "everything", "would", "should", "could",
        "maybe", "though", "through", "while", "first", "second", "third", "three", "four", "five", "times",
    ]
    private static let personAfter: Set<String> = [
        "said", "says", "told", "asked", "called", "thinks", "thought", "wants", "wanted", "brought", "made", "cooked",
        "laughed", "cried", "texted", "and i", "and me",
    ]
    private static let calendarWords: Set<String> = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december", "i", "i'm", "i've", "i'd", "i'll", "ok", "okay", "mr", "mrs", "ms", "dr", "christmas", "easter",
        "halloween", "tv", "god",
    ]

    /// A text's sentences, each as its words split at white space (punctuation still on them).
    static func sentenceWords(_ text: String) -> [[Substring]] {
        DayDigest.split(text).map { $0.split(whereSeparator: DayDigest.isSpace) }
    }

    /// The words, folded to lower case, that the texts (each as its `sentenceWords`) capitalise inside a sentence:
    /// names, not a sentence's start.
    static func capitalisedInside(_ texts: [[[Substring]]]) -> Set<String> {
        Set(
            texts.flatMap { sentences in
                sentences.flatMap { $0.dropFirst().map { bare(String($0)) }.filter(isCapitalised) }
            }.map { $0.lowercased() })
    }

    /// The names of a text (its `sentenceWords`), in order: runs of capitalised words that are not everyday words. A
    /// sentence's first word counts only when it is `known`: capitalised inside a sentence somewhere
    /// (`capitalisedInside`).
    static func names(in text: [[Substring]], known: Set<String>) -> [Name] {
        let sentences = text.map { $0.map(String.init) }
        let insideCapitals = known
        var names: [Name] = []
        for tokens in sentences {
            var index = 0
            while index < tokens.count {
                var end = index
                var run: [String] = []
                while end < tokens.count, isNameWord(bare(tokens[end]), first: end == 0, inside: insideCapitals) {
                    run.append(bare(tokens[end]))
                    end += 1
                    if tokens[end - 1].last.map({ !$0.isLetter }) ?? false { break }
                }
                guard !run.isEmpty else {
                    index += 1
                    continue
                }
                let before = index > 0 ? tokens[index - 1].lowercased() : ""
                let twoBefore = index > 1 ? tokens[index - 2].lowercased() : ""
                let possessive = ["'s", "’s"].contains { tokens[end - 1].lowercased().hasSuffix($0) }
                let after = end < tokens.count ? bare(tokens[end]).lowercased() : ""
                let afterTwo = end + 1 < tokens.count ? after + " " + bare(tokens[end + 1]).lowercased() : after
                let kind: Kind?
                if placeBefore.contains(before) || (before == "to" && placeVerbs.contains(twoBefore))
                    || (before == "the" && placeBefore.contains(twoBefore))
                {
                    kind = .place
                } else if personBefore.contains(before) || (before == "to" && personVerbs.contains(twoBefore)) || possessive
                    || personAfter.contains(after) || personAfter.contains(afterTwo)
                {
                    kind = .person
                } else {
                    kind = nil
                }
                names.append(Name(text: run.joined(separator: " "), kind: kind))
                index = end
            }
        }
        return names
    }

    /// What `bare` trims from a word's ends (made once: a union of character sets is costly).
    private static let punctuationAndSymbols = CharacterSet.punctuationCharacters.union(.symbols)

    /// The word without the punctuation around it or a possessive ending.
    private static func bare(_ token: String) -> String {
        var word = trimmedOfPunctuation(token)
        for ending in ["'s", "’s"] where word.lowercased().hasSuffix(ending) { word = String(word.dropLast(2)) }
        return word
    }

    /// `token` without punctuation or symbols at its ends. ASCII ends are trimmed here; only a token whose ends are
    /// then something other than ASCII letters or digits goes to Foundation, which is slow on Linux.
    private static func trimmedOfPunctuation(_ token: String) -> String {
        func isASCIIMark(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue else { return false }
            return (33...126).contains(ascii) && !ascii.isASCIILetterOrDigit
        }
        func isASCIIWordEnd(_ character: Character?) -> Bool {
            guard let character else { return true }
            return character.asciiValue?.isASCIILetterOrDigit ?? false
        }
        var trimmed = Substring(token)
        while let first = trimmed.first, isASCIIMark(first) { trimmed.removeFirst() }
        while let last = trimmed.last, isASCIIMark(last) { trimmed.removeLast() }
        guard isASCIIWordEnd(trimmed.first), isASCIIWordEnd(trimmed.last) else {
            return token.trimmingCharacters(in: punctuationAndSymbols)
        }
        return String(trimmed)
    }

    /// Whether every character of `word` is a letter, answered without Unicode's tables for ASCII.
    private static func isAllLetters(_ word: String) -> Bool {
        guard word.utf8.allSatisfy({ $0 < 0x80 }) else { return word.allSatisfy(\.isLetter) }
        return word.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
    }

    private static func isCapitalised(_ word: String) -> Bool {
        guard let first = word.first, first.isUppercase else { return false }
        return word.allSatisfy { $0.isLetter || $0 == "-" || $0 == "'" || $0 == "’" } && word.contains { $0.isLowercase }
    }

    private static func isNameWord(_ word: String, first: Bool, inside: Set<String>) -> Bool {
        let folded = word.lowercased()
        guard isCapitalised(word), !EverydayWords.english.contains(folded), !calendarWords.contains(folded) else {
            return false
        }
        return !first || inside.contains(folded)
    }
}
