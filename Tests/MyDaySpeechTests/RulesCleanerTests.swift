import MyDayTestSupport
import Testing

@testable import MyDaySpeech

@Suite struct RulesCleanerTests {
    /// Words spoken one after another, 0.3 s each with 0.05 s between; `|` marks a 1 s pause and `¶` a 3 s one.
    private func words(_ script: String) -> [RecognizedWord] {
        var time = 0.0
        var result: [RecognizedWord] = []
        for token in script.split(separator: " ") {
            switch token {
            case "|": time += 1
            case "¶": time += 3
            case "_": time += 0.4
            default:
                result.append(RecognizedWord(word: String(token), start: time, end: time + 0.3))
                time += 0.35
            }
        }
        return result
    }

    private func clean(_ script: String) -> String { RulesCleaner().cleanText(words(script)) }

    @Test func fillersGoAndSentencesFormAtPauses() {
        #expect(clean("um so i went to the market | uh it was closed") == "So I went to the market. It was closed.")
    }

    @Test func fillersInsideWordsAndNamesStay() {
        #expect(clean("my umbrella is under the bed") == "My umbrella is under the bed.")
        #expect(clean("i met Hmmm at the café") == "I met Hmmm at the café.")
        #expect(clean("hmmm i think so") == "I think so.")
    }

    @Test func likeAndYouKnowAreFillersOnlyBetweenPauses() {
        #expect(clean("i like tea") == "I like tea.")
        #expect(clean("it looks like rain") == "It looks like rain.")
        #expect(clean("it was _ like _ huge") == "It was huge.")
        #expect(clean("we should you know go") == "We should you know go.")
        #expect(clean("we should _ you know _ go") == "We should go.")
    }

    @Test func stuttersCollapseButEmphasisStays() {
        #expect(clean("i i went home") == "I went home.")
        #expect(clean("the the dog") == "The dog.")
        #expect(clean("no no no") == "No no no.")
        #expect(clean("very very good") == "Very very good.")
    }

    @Test func paragraphsAtLongPausesAndNumbersKept() {
        #expect(clean("we met at 7 ¶ later 3 friends came") == "We met at 7.\n\nLater 3 friends came.")
    }

    @Test func edgeCases() {
        #expect(clean("") == "")
        #expect(clean("um") == "")
        #expect(clean("hello") == "Hello.")
        #expect(clean("i'm fine") == "I'm fine.")
        #expect(clean("Really? yes") == "Really? Yes.")
    }

    @Test func itNeverAddsAWord() {
        let scripts = [
            "um so i went to the market | uh it was closed", "like like like", "you know you know", "i i i i", "hmm _ hmm ¶ um",
            "and then | we | left ¶ okay",
        ]
        for script in scripts {
            let input = words(script).map { RulesCleaner.bare($0.word) }
            let output = clean(script).lowercased().split { $0 == " " || $0 == "\n" }.map { RulesCleaner.bare(String($0)) }
            var remaining = input
            for word in output {
                let index = remaining.firstIndex(of: word)
                #expect(index != nil, "'\(word)' was added to '\(script)'")
                if let index { remaining.removeSubrange(remaining.startIndex...index) }
            }
        }
    }

    // Whisper writes casing and punctuation and often keeps fillers.

    @Test func whispersPunctuationIsKeptAndPausesDoNotEndItsSentences() {
        #expect(
            clean("So I went to the | market and it was closed. ¶ Then we walked home.")
                == "So I went to the market and it was closed.\n\nThen we walked home.")
    }

    @Test func fillersGoWithTheirCommasWithoutLeavingALowercaseStart() {
        #expect(clean("Um, so this morning I walked.") == "So this morning I walked.")
        #expect(clean("I think, um, we should go.") == "I think we should go.")
        #expect(clean("We went home. Um, then we slept.") == "We went home. Then we slept.")
        #expect(clean("We went home, uh. It was late.") == "We went home. It was late.")
        #expect(clean("It was, hmm, fine, I guess.") == "It was fine, I guess.")
    }

    @Test func abbreviationsAndNumbersStayAsWritten() {
        #expect(clean("Then Mr. Smith came by at 3 o'clock.") == "Then Mr. Smith came by at 3 o'clock.")
        #expect(clean("We paid 1,200 euros for Dr. Brown's visit.") == "We paid 1,200 euros for Dr. Brown's visit.")
    }

    /// Transcripts generated from a fixed seed, shaped like Whisper's and PocketSphinx's: the cleaner adds no word,
    /// leaves no doubled or stray punctuation, and starts no sentence in lowercase.
    @Test func generatedTranscriptsKeepTheRules() {
        var random = SplitMix64(seed: 0x6d79_6461_79)
        let plain = ["i", "went", "home", "and", "we", "talked", "about", "the", "garden", "so", "it", "was", "3", "1,200"]
        let named = ["Mr.", "Dr.", "Smith", "Paris", "I'm", "café"]
        let fillers = ["um", "uh", "hmm", "er", "Um", "Uh", "Hmm"]
        let marks = ["", "", "", ",", ".", "?", "!"]
        for _ in 0..<3000 {
            var script: [String] = []
            let punctuated = random.next() % 2 == 0
            for _ in 0..<(1 + Int(random.next() % 24)) {
                switch random.next() % 10 {
                case 0: script.append(["|", "¶", "_"][Int(random.next() % 3)])
                case 1, 2: script.append(fillers[Int(random.next() % UInt64(fillers.count))])
                case 3: script.append(named[Int(random.next() % UInt64(named.count))])
                default: script.append(plain[Int(random.next() % UInt64(plain.count))])
                }
                if punctuated, let last = script.last, !["|", "¶", "_"].contains(last), !last.hasSuffix(".") {
                    script[script.count - 1] = last + marks[Int(random.next() % UInt64(marks.count))]
                }
            }
            let input = script.joined(separator: " ")
            let output = clean(input)
            #expect(isSubsequence(bareWords(output), of: bareWords(input)), "added a word: \(input) → \(output)")
            for stray in [",,", " ,", ",.", ".,", "..", " .", ",\n", "?.", "!."] {
                #expect(!output.contains(stray), "'\(stray)' in \(input) → \(output)")
            }
            #expect(sentenceStarts(output).allSatisfy { !$0.isLowercase }, "lowercase start: \(input) → \(output)")
            #expect(output.isEmpty || ".!?".contains(output.last!), "no end: \(input) → \(output)")
        }
    }

    private func bareWords(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map { RulesCleaner.bare(String($0)) }.filter {
            !$0.isEmpty && $0 != "|" && $0 != "¶" && $0 != "_"
        }
    }

    private func isSubsequence(_ part: [String], of whole: [String]) -> Bool {
        var rest = whole[...]
        for word in part {
            guard let found = rest.firstIndex(of: word) else { return false }
            rest = rest[rest.index(after: found)...]
        }
        return true
    }

    /// The first letter of the text and of every sentence after an end mark (abbreviations aside).
    private func sentenceStarts(_ text: String) -> [Character] {
        var starts: [Character] = []
        var atStart = true
        for token in text.split(whereSeparator: \.isWhitespace) {
            if atStart, let first = token.first(where: \.isLetter), token.first?.isLetter == true { starts.append(first) }
            atStart = token.last.map { ".!?".contains($0) } == true && !RulesCleaner.abbreviations.contains(token.lowercased())
        }
        return starts
    }
}
