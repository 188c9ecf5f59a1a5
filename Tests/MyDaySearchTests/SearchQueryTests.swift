import Foundation
import MyDayTestSupport
import Testing

@testable import MyDaySearch

struct SearchQueryTests {
    /// Wednesday 2026-03-18, the day the date phrases below are read on.
    let phrases = DatePhrases(today: LocalDay(year: 2026, month: 3, day: 18))

    @Test func wordsArePrefixesAndQuotesMakePhrases() {
        let query = SearchQuery(parsing: #"Mark "went to the market" CAFÉ"#)
        #expect(query.terms == [.word("mark"), .word("café"), .phrase(["went", "to", "the", "market"])])
        #expect(
            query.fts5Expression(columns: ["title", "body"]) == #"{title body} : ("mark"* AND "café"* AND "went to the market")"#)
        #expect(query.tsQuery() == "'mark':* & 'café':* & ('went' <-> 'to' <-> 'the' <-> 'market')")
        #expect(query.tsQuery(wholeWords: true) == "'mark' & 'café' & ('went' <-> 'to' <-> 'the' <-> 'market')")
        #expect(
            SearchQuery(parsing: #"lake "by the""#).tsQuery(weights: "AB") == "'lake':*AB & ('by':AB <-> 'the':AB)")
    }

    @Test func badSyntaxIsReadAsWords() {
        // Operators, symbols and an open quote are words or nothing, never FTS5 or tsquery syntax
        // ("or" is a question word, left out beside others)
        #expect(SearchQuery(parsing: #"NOT (alex OR "bob*"#).terms == [.word("not"), .word("alex"), .word("bob")])
        #expect(SearchQuery(parsing: #"title:walk -rain ^ * " '"#).terms == [.word("title"), .word("walk"), .word("rain")])
        #expect(SearchQuery(parsing: #"it's "#).terms == [.word("it"), .phrase(["s"])])
        #expect(SearchQuery(parsing: #"Don't forget"#).terms == [.word("don"), .word("forget")])
        #expect(SearchQuery(parsing: "   ").terms.isEmpty)
        #expect(SearchQuery(parsing: #""""#).hasNoTerms)
    }

    @Test func aSearchAsksTheIndexForLittle() {
        // Repeats are found after folding: case and accents make no new word
        #expect(SearchQuery(parsing: "Café cafe CAFÉ café").terms == [.word("café")])
        #expect(SearchQuery(parsing: #"walk "Walk" "WALK by" "walk by""#).terms == [.word("walk"), .phrase(["walk", "by"])])
        // A word of one letter or digit is a whole word, never the prefix of every word it begins
        #expect(SearchQuery(parsing: "vitamin K").terms == [.word("vitamin"), .phrase(["k"])])
        #expect(SearchQuery(parsing: "x É e").fts5Expression(columns: ["body"]) == #"{body} : ("x" AND "é")"#)
        // However many words are typed, at most twelve terms (and twelve words to a phrase) are looked for
        let letters = (0..<99).map { String(UnicodeScalar(UInt8(97 + $0 % 26))) }.joined(separator: " ")
        #expect(SearchQuery(parsing: letters).terms.count == SearchQuery.maximumTerms)
        let manyWords = (0..<40).map { "word\($0)" }
        #expect(SearchQuery(parsing: manyWords.joined(separator: " ")).terms == manyWords.prefix(12).map { .word($0) })
        #expect(
            SearchQuery(parsing: "\"" + manyWords.joined(separator: " ") + "\"").terms == [.phrase(Array(manyWords.prefix(12)))])
    }

    @Test func questionWordsGoWhenOtherWordsRemain() {
        let question = SearchQuery(parsing: "What did I do with Alex last month?", dates: phrases)
        #expect(question.terms == [.word("alex")])
        #expect(
            question.dates
                == LocalDayRange(from: LocalDay(year: 2026, month: 2, day: 1), to: LocalDay(year: 2026, month: 2, day: 28)))
        #expect(question.datePhrase == "last month")
        // Only question words: they are what was asked for
        #expect(SearchQuery(parsing: "the who").terms == [.word("the"), .word("who")])
    }

    @Test func datePhrasesBecomeRanges() throws {
        func range(_ text: String) -> String? {
            SearchQuery(parsing: text, dates: phrases).dates.map { "\($0.from)…\($0.to)" }
        }
        // The cases the web app's offline search is held to as well
        struct Cases: Decodable {
            let today: String
            let cases: [String: String?]
        }
        let file = RepositoryFiles.tool("date-phrase-cases.json")
        let shared = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: file))
        #expect(LocalDay(iso: shared.today) == phrases.today && shared.cases.count > 20)
        for (text, days) in shared.cases { #expect(range(text) == days, "\(text)") }
        // On a Sunday, "last weekend" is the one before, and "this weekend" is today's
        let sunday = DatePhrases(today: LocalDay(year: 2026, month: 3, day: 22))
        #expect(SearchQuery(parsing: "last weekend", dates: sunday).dates?.from == LocalDay(year: 2026, month: 3, day: 14))
        #expect(SearchQuery(parsing: "this weekend", dates: sunday).dates?.to == LocalDay(year: 2026, month: 3, day: 22))
        // January's "last month" is December of the year before
        let january = DatePhrases(today: LocalDay(year: 2026, month: 1, day: 5))
        #expect(SearchQuery(parsing: "last month", dates: january).dates?.from == LocalDay(year: 2025, month: 12, day: 1))
        // Without a reader, the words stay words
        #expect(SearchQuery(parsing: "yesterday").terms == [.word("yesterday")])
    }

    @Test func theDayOfAnInstantIsItsOwnTimeZones() {
        let instant = Date(timeIntervalSince1970: 1_773_792_000)  // 2026-03-18 00:00 UTC
        #expect(LocalDay(instant, in: TimeZone(identifier: "America/New_York")!) == LocalDay(year: 2026, month: 3, day: 17))
        #expect(LocalDay(instant, in: TimeZone(identifier: "Asia/Tokyo")!) == LocalDay(year: 2026, month: 3, day: 18))
        #expect(LocalDay(iso: "2026-02-29") == nil && LocalDay(iso: "2024-02-29")?.number == 20_240_229)
        #expect(LocalDay(iso: "2024-2-1") == nil && LocalDay(iso: "yesterday") == nil)
    }
}

struct HighlighterTests {
    @Test func matchesAreUTF16OffsetsIgnoringCaseAndAccents() {
        let highlighter = Highlighter(SearchQuery(parsing: "cafe uber"))
        let marked = highlighter.marked("Un café 👋 avec Über")!
        let utf16 = Array(marked.text.utf16)
        let words = marked.matches.map { String(decoding: utf16[$0], as: UTF16.self) }
        #expect(words == ["café", "Über"])
        #expect(marked.matches == [3..<7, 16..<20])
        #expect(highlighter.marked("nothing here") == nil)
    }

    @Test func prefixesAndPhrasesAreMarkedWordByWord() {
        let marked = Highlighter(SearchQuery(parsing: #"mark "the park""#)).marked("Market day in the park, not the car park")!
        let utf16 = Array(marked.text.utf16)
        #expect(marked.matches.map { String(decoding: utf16[$0], as: UTF16.self) } == ["Market", "the", "park"])
    }

    @Test func aSnippetIsCutAroundTheMostTermsAndMarkedWhereItWasCut() {
        let words = (1...200).map { "w\($0)" }
        var text = words.joined(separator: " ")
        text = text.replacingOccurrences(of: "w20 ", with: "alex ").replacingOccurrences(of: "w150 w151", with: "alex lake")
        let snippet = Highlighter(SearchQuery(parsing: "alex lake")).snippet(of: text, maxWords: 12)!
        #expect(snippet.text.hasPrefix("…") && snippet.text.hasSuffix("…"))
        let utf16 = Array(snippet.text.utf16)
        #expect(snippet.matches.map { String(decoding: utf16[$0], as: UTF16.self) } == ["alex", "lake"])
        #expect(snippet.text.contains("w149 alex lake w152"))
        // A short text is whole, without marks of a cut
        #expect(Highlighter(SearchQuery(parsing: "lake")).snippet(of: "By the lake.")?.text == "By the lake.")
    }

    @Test func aLongTextsPassageIsTheSameFromItsFirstKilobyteAsFromAllOfIt() {
        // Given long ASCII texts with one word at places before, across and after the first kilobyte, some more than once
        let filler = ["walked", "to", "the", "market", "bought", "bread", "x", "called", "my", "sister", "again"]
        for place in [0, 3, 150, 160, 170, 175, 180, 185, 190, 400] {
            for repeated in [false, true] {
                var words = (0..<500).map { filler[($0 * 7) % filler.count] }
                words[place] = "Harbour"
                if repeated { words[place + 9] = "harbours" }
                let text = words.joined(separator: " ") + "."
                // When the word's passage is cut, and the same with a second word found nowhere (which reads every word)
                let fast = Highlighter(SearchQuery(parsing: "harbour")).snippet(of: text)
                let full = Highlighter(SearchQuery(parsing: "harbour qqqzzz")).snippet(of: text)
                // Then both are the same passage with the same marks
                #expect(fast != nil && fast == full, "at \(place)")
            }
        }
    }

    @Test func thePassageHoldsTheMostDifferentTermsTheEarliestSuch() {
        // Given texts where three terms are spread at pseudo-random places
        var seed: UInt64 = 42
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let terms = ["alpha", "beta", "gamma"]
        for _ in 0..<200 {
            var words = (0..<120).map { "w\($0)" }
            for _ in 0..<(1 + next(8)) { words[next(120)] = terms[next(3)] }
            let text = words.joined(separator: " ")
            // When a passage of 10 words is cut for the three terms
            let snippet = Highlighter(SearchQuery(parsing: "alpha beta gamma")).snippet(of: text, maxWords: 10)
            // Then it starts (before its lead of up to 2 words) at the earliest match whose 10 words hold the most terms
            let matches = words.indices.filter { terms.contains(words[$0]) }
            let best = matches.max { a, b in
                let inA = Set(matches.filter { $0 >= a && $0 < a + 10 }.map { words[$0] }).count
                let inB = Set(matches.filter { $0 >= b && $0 < b + 10 }.map { words[$0] }).count
                return inA < inB || (inA == inB && a > b)
            }!
            let start = best - min(2, best)
            let expected = words[start..<min(120, start + 10)].joined(separator: " ")
            #expect(snippet?.text.trimmingCharacters(in: CharacterSet(charactersIn: "…")) == expected)
        }
    }

    @Test func nonLatinTextIsWordsToo() {
        let marked = Highlighter(SearchQuery(parsing: "привет ΚΑΛΗΜΕΡΑ")).marked("Он сказал: Привет! Καλημέρα σας")!
        let utf16 = Array(marked.text.utf16)
        #expect(marked.matches.map { String(decoding: utf16[$0], as: UTF16.self) } == ["Привет", "Καλημέρα"])
    }
}

struct SearchTextTests {
    @Test func asciiTextIsCutAsEveryTextIs() {
        // Given texts of ASCII letters, digits, spaces, punctuation and controls, made from a fixed seed
        var generator = SplitMix64(seed: 20_261_125)
        let alphabet = Array("aZbY09 ,.!?'-\n\t_~émqQ")
        for length in 0..<400 {
            let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
                .filter(\.isASCII)
            // When it is cut byte by byte and scalar by scalar
            var bytes = text
            let fast = bytes.withUTF8 { SearchText.asciiTokens(in: $0) }
            // Then the words, their folding and their places are the same
            #expect(fast == SearchText.scalarTokens(in: text), "\(text)")
        }
        #expect(SearchText.words(in: "Walked to the HARBOUR, 2 times.") == ["walked", "to", "the", "harbour", "2", "times"])
    }
}
