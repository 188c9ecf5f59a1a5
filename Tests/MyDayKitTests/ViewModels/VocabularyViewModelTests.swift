import Foundation
import Synchronization
import Testing

@testable import MyDayKit

@MainActor
@Suite struct VocabularyViewModelTests {
    let harness = CoreHarness()

    @Test func addingAndRemovingSavesTheWholeListAndShowsTheServersAnswer() async throws {
        // Given a vocabulary with a learned word
        let saved = Mutex<[[String]]>([])
        let server = Mutex([VocabularyWord(text: "Siobhan", source: .correction)])
        var client = FakeMyDayClient()
        client.onVocabulary = { server.withLock { $0 } }
        client.onReplaceVocabulary = { words in
            saved.withLock { $0.append(words) }
            let kept = words.map { VocabularyWord(text: $0, source: $0 == "Siobhan" ? .correction : .you) }
            server.withLock { $0 = kept }
            return kept
        }
        let model = VocabularyViewModel(core: harness.core(client))
        await model.load()
        #expect(model.words == [VocabularyWord(text: "Siobhan", source: .correction)])

        // When two words are typed at once, one of them already there in another case
        model.newWord = "Przemek, siobhan ,  Dún Laoghaire"
        await model.add()
        // Then the whole list goes to the server once, without the repeat, and the field empties
        #expect(saved.withLock { $0 } == [["Siobhan", "Przemek", "Dún Laoghaire"]])
        #expect(model.words.map(\.text) == ["Siobhan", "Przemek", "Dún Laoghaire"])
        #expect(model.newWord.isEmpty && model.errorMessage == nil)

        // When a word is learned on the server after the list was shown (a title written elsewhere)
        server.withLock { $0.append(VocabularyWord(text: "Kraków", source: .title)) }
        // And a learned word is removed here, then the list without it is saved, the new word kept
        await model.remove(VocabularyWord(text: "Siobhan", source: .correction))
        #expect(saved.withLock { $0.last } == ["Przemek", "Dún Laoghaire", "Kraków"])
        #expect(VocabularyViewModel.sourceText(.correction) == "From a correction")
    }

    @Test func onlyAFieldHoldingAWordCanBeAdded() {
        // (the fake fails the test on any call)
        let model = VocabularyViewModel(core: harness.core(FakeMyDayClient()))
        for empty in ["", "  ", ", ,", " ,\n, "] {
            model.newWord = empty
            #expect(!model.canAdd, "\(empty)")
        }
        model.newWord = " , Przemek"
        #expect(model.canAdd)
    }

    @Test func aWordIsTheSameAsTheServerKeysIt() {
        // Case and Latin accents aside
        #expect(VocabularyViewModel.sameWord("Siobhán", "SIOBHAN") && VocabularyViewModel.sameWord("Zoë", "zoe"))
        // But a mark of another script makes another name
        #expect(!VocabularyViewModel.sameWord("カナ", "ガナ") && !VocabularyViewModel.sameWord("राम", "रमा"))
    }

    @Test func wordsTheServerWouldRefuseAreRefusedBeforeAsking() async throws {
        // (the fake fails the test on any replaceVocabulary call)
        var client = FakeMyDayClient()
        client.onVocabulary = { (0..<500).map { VocabularyWord(text: "Name\($0)", source: .you) } }
        let model = VocabularyViewModel(core: harness.core(client))
        await model.load()
        model.newWord = String(repeating: "x", count: 51)
        await model.add()
        #expect(model.errorMessage?.contains("longer than 50") == true)
        model.newWord = "Saoirse"
        await model.add()
        #expect(model.errorMessage?.contains("at most 500") == true)
        #expect(model.newWord == "Saoirse")
    }

    @Test func theFollowerMarksTheWordBeingSaidAndPlaysFromATappedWord() {
        let follower = TranscriptFollower(words: [
            TimedWord(text: "So", start: 0.3, end: 0.5, probability: 0.9),
            TimedWord(text: "I", start: 0.6, end: 0.7, probability: 0.99),
            TimedWord(text: "met", start: 0.8, end: 1.0, probability: 0.98),
            TimedWord(text: "Siobhan", start: nil, end: nil, probability: nil),
            TimedWord(text: "today.", start: 1.7, end: 2.2, probability: 0.3),
        ])
        #expect(follower.currentWord(at: 0.1) == nil)
        #expect(follower.currentWord(at: 0.3) == 0)
        #expect(follower.currentWord(at: 0.75) == 1)
        #expect(follower.currentWord(at: 1.5) == 2)
        #expect(follower.currentWord(at: 9) == 4)
        // A typed word plays from the word before it
        #expect(follower.playbackStart(forWordAt: 3) == 0.8)
        #expect(follower.playbackStart(forWordAt: 4) == 1.7)
        #expect(follower.isUnsure(4) && !follower.isUnsure(0) && !follower.isUnsure(3))
    }
}
