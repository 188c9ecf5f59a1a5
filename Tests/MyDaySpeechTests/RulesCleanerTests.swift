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
}
