import Foundation
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDaySpeech

/// A recognizer that answers from a script: the first pass's words, then for each prompt the words of the stretch.
/// A call the script did not expect fails the test.
private final class ScriptedRecognizer: SpeechRecognizer {
    struct Call: Equatable {
        let prompt: String?
        let seconds: Double
    }
    let firstPass: [RecognizedWord]
    let stretches: [String: [RecognizedWord]]
    let calls = Mutex<[Call]>([])

    init(firstPass: [RecognizedWord], stretches: [String: [RecognizedWord]] = [:]) {
        self.firstPass = firstPass
        self.stretches = stretches
    }

    func recognize(pcmFile: URL, language: String?, prompt: String?, progress: @escaping RecognitionProgress) async throws
        -> Recognition
    {
        progress(0.5)
        progress(1)
        let bytes = try FileManager.default.attributesOfItem(atPath: pcmFile.path)[.size] as? Int ?? 0
        calls.withLock { $0.append(Call(prompt: prompt, seconds: Double(bytes) / 32_000)) }
        guard let prompt else { return Recognition(words: firstPass, language: "en") }
        let words = try #require(stretches[prompt], "unexpected prompt \(prompt)")
        return Recognition(words: words, language: "en")
    }
}

/// A recognizer that hears English when told so, and otherwise whatever language and certainty it was given.
private final class GuessingRecognizer: SpeechRecognizer {
    let guess: (language: String, probability: Double?)
    let asked = Mutex<[String?]>([])

    init(guess: (language: String, probability: Double?)) {
        self.guess = guess
    }

    func recognize(pcmFile: URL, language: String?, prompt: String?, progress: @escaping RecognitionProgress) async throws
        -> Recognition
    {
        asked.withLock { $0.append(language) }
        if let language {
            return Recognition(words: [RecognizedWord(word: "Hello.", start: 0, end: 0.5)], language: language)
        }
        return Recognition(
            words: [RecognizedWord(word: "สวัสดี", start: 0, end: 0.5)], language: guess.language,
            languageProbability: guess.probability)
    }
}

@Suite struct VocabularyRecognitionTests {
    private func words(_ text: String, from start: Double = 0, p: Double = 0.9) -> [RecognizedWord] {
        text.split(separator: " ").enumerated().map { index, word in
            RecognizedWord(
                word: String(word), start: start + Double(index) * 0.5, end: start + Double(index) * 0.5 + 0.4, probability: p)
        }
    }

    private func pcm(seconds: Double) throws -> URL {
        let url = TestFolder.path("vocabulary", ext: "pcm")
        try Data(count: Int(seconds * 32_000)).write(to: url)
        return url
    }

    private static let fiftyNames =
        ("Siobhan Przemek Joaquín Aoife Niamh Saoirse Tadhg Wojciech Grzegorz Xochitl Oisín Ngozi Chidi Anouk Eilidh "
        + "Padraig Ruairi Bronagh Caoimhe Dervla Fionnuala Grainne Ingrid Jurgen Katarzyna Leszek Malgorzata Nuala "
        + "Orla Pilar Quentin Radek Sven Tomasz Ulrike Vesna Wiebke Yusuf Zbigniew Ailbhe Beathan Cillian Declan "
        + "Emer Fergal Gearoid Hamish Isla Jarlath Kasia").split(separator: " ").map(String.init)

    @Test func onlyTheSentenceThatSoundsLikeANameIsHeardAgainWithTheNamesItMayHold() async throws {
        // Given a first pass that heard "Shimon" where the person said Siobhan, in the second of two sentences
        var first = words("We walked to the harbour. Then I met Shimon for lunch.", p: 0.95)
        first[8] = RecognizedWord(word: "Shimon", start: first[8].start, end: first[8].end, probability: 0.42)
        // (the stretch starts at the end of "harbour.", 2.4 s, and is heard after a second of silence: its words are
        // timed from there)
        let again = words("Then I met Siobhan for lunch.", from: 1.1)
        let recognizer = ScriptedRecognizer(firstPass: first, stretches: ["Siobhan": again])
        let recognition = VocabularyRecognition(recognizer: recognizer, scratch: TestFolder.root)

        // When it is recognised with a vocabulary of fifty names
        let told = Mutex<[Double]>([])
        let result = try await recognition.recognize(
            pcmFile: try pcm(seconds: 6), language: "en", vocabulary: Self.fiftyNames,
            progress: { share in told.withLock { $0.append(share) } })

        // Then the second sentence alone was heard again, with only the name it sounds like as the prompt
        let calls = recognizer.calls.withLock { $0 }
        #expect(calls.map(\.prompt) == [nil, "Siobhan"])
        // (the first pass told as the first 90% of the work, the one stretch heard again as the rest)
        #expect(told.withLock { $0 } == [0.45, 0.9, 1])
        // (the sentence, about 3 s, with 1.5 s of silence around it)
        #expect(calls[1].seconds < 5, "the stretch was \(calls[1].seconds) s")
        // And its words replace the first pass's, at the whole recording's times, the first sentence untouched
        #expect(result.rawText == "We walked to the harbour. Then I met Siobhan for lunch.")
        let siobhan = try #require(result.words.first { $0.word == "Siobhan" })
        #expect(abs(siobhan.start - first[8].start) < 0.01, "Siobhan at \(siobhan.start)")
        #expect(result.words.map(\.start) == result.words.map(\.start).sorted())
    }

    @Test func nothingSoundsLikeANameSoNothingIsHeardTwice() async throws {
        // (every word but one heard surely; the doubtful one sounds like no name)
        var first = words("The weather was cold but the sun came out in the afternoon.", p: 0.95)
        first[1] = RecognizedWord(word: "weather", start: first[1].start, end: first[1].end, probability: 0.5)
        let recognizer = ScriptedRecognizer(firstPass: first)
        let result = try await VocabularyRecognition(recognizer: recognizer, scratch: TestFolder.root).recognize(
            pcmFile: try pcm(seconds: 6), language: "en", vocabulary: Self.fiftyNames)
        #expect(recognizer.calls.withLock { $0.map(\.prompt) } == [nil])
        #expect(result.words == first)
        // And without a vocabulary, one pass
        let alone = ScriptedRecognizer(firstPass: words("I met Shimon.", p: 0.3))
        _ = try await VocabularyRecognition(recognizer: alone, scratch: TestFolder.root).recognize(
            pcmFile: try pcm(seconds: 2), language: nil, vocabulary: [])
        #expect(alone.calls.withLock { $0.count } == 1)
    }

    @Test func aLongRecordingIsHeardAgainForAFifthOfItsLengthAtMost() async throws {
        // Given ten minutes in which a doubtful "Shimon" comes every 20 seconds
        var first: [RecognizedWord] = []
        for sentence in 0..<30 {
            let start = Double(sentence) * 20
            for (index, word) in ["Then", "I", "met", "Shimon", "again."].enumerated() {
                first.append(
                    RecognizedWord(
                        word: word, start: start + Double(index) * 0.5, end: start + Double(index) * 0.5 + 0.4,
                        probability: word == "Shimon" ? 0.4 : 0.95))
            }
        }
        let recognizer = ScriptedRecognizer(firstPass: first, stretches: ["Siobhan": words("Then I met Siobhan again.")])
        _ = try await VocabularyRecognition(recognizer: recognizer, scratch: TestFolder.root).recognize(
            pcmFile: try pcm(seconds: 600), language: "en", vocabulary: Self.fiftyNames)
        // Then no more than a fifth of it, counted in Whisper's 30 s windows, is heard again
        let again = recognizer.calls.withLock { $0.dropFirst() }
        #expect(!again.isEmpty && again.count <= 4, "\(again.count) stretches heard again")
        #expect(again.allSatisfy { $0.seconds <= 25.01 })
    }

    @Test func aSecondHearingIsUsedOnlyWhenItWroteANameAndKeptTheWords() {
        let first = words("Then I met Shimon for lunch today.")
        let siobhan = [VocabularyRecognition.Spot(word: "Siobhan", start: 1.5, end: 1.9)]
        // Lost most of the words
        #expect(
            VocabularyRecognition.replacing(in: first, from: 0, to: 3, with: words("Siobhan"), teaching: siobhan) == first)
        // Lost two words in six (the first of the stretch, as Whisper does)
        #expect(
            VocabularyRecognition.replacing(
                in: first, from: 0, to: 3, with: words("met Siobhan for lunch"), teaching: siobhan) == first)
        // Heard it differently, but wrote none of the names it was given
        #expect(
            VocabularyRecognition.replacing(
                in: first, from: 0, to: 3, with: words("Then I met Simon for lunch"), teaching: siobhan) == first)
        // Wrote the name twice where one place sounded like it
        #expect(
            VocabularyRecognition.replacing(
                in: first, from: 0, to: 3, with: words("Siobhan I met Siobhan for lunch"), teaching: siobhan)
                == first)
        // Wrote the name, every word kept: used
        let used = VocabularyRecognition.replacing(
            in: first, from: 0, to: 3, with: words("Then I met Siobhan for lunch"), teaching: siobhan)
        #expect(used.map(\.word) == ["Then", "I", "met", "Siobhan", "for", "lunch", "today."])
    }

    @Test func namesSoundAlikeAcrossSpellingsAndEverydayWordsDoNot() {
        #expect(SoundsLike.similarity(word: "Siobhan", heard: "Shivawn") >= 0.6)
        #expect(SoundsLike.similarity(word: "Przemek", heard: "Shemek") >= 0.6)
        #expect(SoundsLike.similarity(word: "Siobhan", heard: "Shimon") >= 0.6)
        #expect(SoundsLike.similarity(word: "Niamh", heard: "Neeve") >= 0.6)
        #expect(SoundsLike.similarity(word: "Siobhan", heard: "Tuesday") < 0.6)
        #expect(SoundsLike.similarity(word: "Przemek", heard: "harbour") < 0.6)
        // A stretch already spelled as the name is left alone
        let heard = [RecognizedWord(word: "Siobhan,", start: 0, end: 0.5)]
        #expect(VocabularyMatch.find(["siobhan"], in: heard, threshold: 0.6).isEmpty)
        // Only doubtful words are taken for a name heard wrongly: not an everyday word, not a word heard surely
        let shimon = [RecognizedWord(word: "Shimon", start: 0, end: 0.5, probability: 0.5)]
        #expect(VocabularyMatch.find(["Siobhan"], in: shimon, threshold: 0.7).map(\.word) == ["Siobhan"])
        let sure = [RecognizedWord(word: "Shimon", start: 0, end: 0.5, probability: 0.85)]
        #expect(VocabularyMatch.find(["Siobhan"], in: sure, threshold: 0.7).isEmpty)
        // A number is no name, even beside a word that sounds like one ("4. Coffee," and Caoimhe share a key)
        let numbered = [
            RecognizedWord(word: "4.", start: 0, end: 0.3, probability: 0.2),
            RecognizedWord(word: "Coffee,", start: 0.4, end: 0.8, probability: 0.95),
        ]
        #expect(VocabularyMatch.find(["Caoimhe"], in: numbered, threshold: 0.7).isEmpty)
        // A stretch holding a word already spelled as one of the person's is left alone ("in Krakow." and Kraków)
        let spelled = [
            RecognizedWord(word: "in", start: 0, end: 0.2, probability: 0.6),
            RecognizedWord(word: "Krakow.", start: 0.3, end: 0.8, probability: 0.6),
        ]
        #expect(VocabularyMatch.find(["Kraków"], in: spelled, threshold: 0.7).isEmpty)
    }

    @Test func aPersonsWordIsAlsoReadByTheRulesOfItsLanguageAndAHeardWordAsEnglishIsSpoken() {
        // Heard as English is spoken: a final "e" or an "r" after the last vowel not sounded
        #expect(SoundsLike.similarity(word: "Niamh", heard: "Nieve") == 1)
        #expect(SoundsLike.similarity(word: "Saoirse", heard: "Sears") == 1)
        #expect(SoundsLike.similarity(word: "Aoife", heard: "Efer") == 1)
        #expect(SoundsLike.similarity(word: "Caoimhe", heard: "Kiever") == 1)
        // The person's word read by the rules of Irish ("c" hard, "dh" silent), Polish or German ("j" as "y")
        #expect(SoundsLike.similarity(word: "Ciarán", heard: "Kiran") == 1)
        #expect(SoundsLike.similarity(word: "Tadhg", heard: "Taig") == 1)
        #expect(SoundsLike.similarity(word: "Jürgen", heard: "Yurgen") == 1)
        // Each reading only where its language would have it: English words stay far from the names
        #expect(SoundsLike.similarity(word: "Caoimhe", heard: "Kevin") < VocabularyRecognition.respelling)
        #expect(SoundsLike.similarity(word: "Niamh", heard: "never") < VocabularyRecognition.respelling)
        #expect(SoundsLike.similarity(word: "Tadhg", heard: "today") < VocabularyRecognition.respelling)
        #expect(SoundsLike.keys("Kiran", readings: SoundsLike.heardReadings) == [SoundsLike.key("Kiran")])
    }

    @Test func aLanguageTheEngineDoubtedGivesWayToThePersonsUsualOne() async throws {
        func heard(_ guess: (String, Double?), usual: String?, told: String? = nil) async throws -> (String, [String?]) {
            let recognizer = GuessingRecognizer(guess: guess)
            let result = try await VocabularyRecognition(recognizer: recognizer, scratch: TestFolder.root).recognize(
                pcmFile: try pcm(seconds: 1), language: told, usualLanguage: usual, vocabulary: [])
            return (result.rawText, recognizer.asked.withLock { $0 })
        }
        // Taken for Thai, doubtfully, by a person who speaks English: heard again in English
        #expect(try await heard(("th", 0.34), usual: "en") == ("Hello.", [nil, "en"]))
        // Sure of it, or no usual language, or the usual one detected, or an engine that does not say: heard once
        #expect(try await heard(("th", 0.9), usual: "en") == ("สวัสดี", [nil]))
        #expect(try await heard(("th", 0.34), usual: nil) == ("สวัสดี", [nil]))
        #expect(try await heard(("en", 0.34), usual: "en").1 == [nil])
        #expect(try await heard(("th", nil), usual: "en").1 == [nil])
        // A language the client gave is never second-guessed
        #expect(try await heard(("th", 0.34), usual: "en", told: "fr").1 == ["fr"])
    }

    @Test func aPlaceHeardAlikeTwiceTakesThePersonsSpelling() async throws {
        // Given a first pass that wrote "Rory" where the person said Ruairi, and a second hearing, told the name, that
        // wrote "Rory" again
        var first = words("Then I met Rory, for lunch.", p: 0.95)
        first[3] = RecognizedWord(word: "Rory,", start: first[3].start, end: first[3].end, probability: 0.6)
        let again = words("Then I met Rory, for lunch.", from: 1.0, p: 0.7)
        let recognizer = ScriptedRecognizer(firstPass: first, stretches: ["Ruairi": again])

        // When it is recognised with a vocabulary that holds Ruairi
        let result = try await VocabularyRecognition(recognizer: recognizer, scratch: TestFolder.root).recognize(
            pcmFile: try pcm(seconds: 4), language: "en", vocabulary: Self.fiftyNames)

        // Then the place takes the person's spelling, with the heard word's time, punctuation and doubt
        #expect(result.rawText == "Then I met Ruairi, for lunch.")
        let ruairi = try #require(result.words.first { $0.word == "Ruairi," })
        #expect(abs(ruairi.start - first[3].start) < 0.01 && ruairi.probability == 0.7)
    }

    @Test func onlyAPlaceThatSoundsTheSameWhereTheFirstPassHeardItIsRespelled() {
        let spot = VocabularyRecognition.Spot(word: "Caoimhe", start: 1.5, end: 1.9)
        // Heard as "Kiva" at the spot: the person's spelling
        #expect(
            VocabularyRecognition.spelledAsTaught(words("Then I met Kiva. today"), at: [spot]).map(\.word) == [
                "Then", "I", "met", "Caoimhe.", "today",
            ])
        // Heard as something else that does not sound the same ("Kevin"): left as heard
        let kevin = words("Then I met Kevin today")
        #expect(VocabularyRecognition.spelledAsTaught(kevin, at: [spot]) == kevin)
        // Heard alike, but seconds away from where the first pass heard it: left as heard
        let elsewhere = words("Then I met Ann and Kiva today")
        #expect(VocabularyRecognition.spelledAsTaught(elsewhere, at: [spot]) == elsewhere)
        // Already spelled as the person spells it at the spot: nothing to do
        let spelled = words("Then I met Caoimhe today")
        #expect(VocabularyRecognition.spelledAsTaught(spelled, at: [spot]) == spelled)
        // An everyday word is never respelled, however it sounds ("coffee" and Caoimhe share a key)
        let coffee = words("Then I had coffee today")
        #expect(VocabularyRecognition.spelledAsTaught(coffee, at: [spot]) == coffee)
    }
}
