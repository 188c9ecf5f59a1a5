import Testing

@testable import MyDayServer

/// The diff of words behind word times and learned corrections: right on a person's edits, bounded on any input.
@Suite struct WordChangesTests {
    /// `count` different words: "w0 w1 w2 …".
    private func words(_ count: Int, _ prefix: String = "w") -> [String] { (0..<count).map { "\(prefix)\($0)" } }

    @Test func smallEditsAreTheStandardLibrarysDiff() {
        // Given edits of a short text: a word replaced, one removed, two added, one repeated word moved
        let old = "so I met Shimon today and and we talked".split(separator: " ").map(String.init)
        let new = "I met Siobhan today and we talked a lot and".split(separator: " ").map(String.init)
        // When compared
        let changes = WordChanges.between(old, new)
        // Then the same words are removed and inserted as the standard library finds
        var expected = (removed: Set<Int>(), inserted: Set<Int>())
        for change in new.difference(from: old) {
            switch change {
            case .remove(let offset, _, _): expected.removed.insert(offset)
            case .insert(let offset, _, _): expected.inserted.insert(offset)
            }
        }
        #expect(changes.removed == expected.removed)
        #expect(changes.inserted == expected.inserted)
    }

    @Test func correctionsAtBothEndsOfAnHoursTranscriptTouchOnlyTheCorrectedWords() {
        // Given a 9,000-word transcript whose first and last words the person corrected, and one in the middle
        let old = words(9_000)
        var new = old
        new[0] = "Siobhan"
        new[4_500] = "Przemek"
        new[8_999] = "Caoimhe"
        // When compared: only those three went and came
        let changes = WordChanges.between(old, new)
        #expect(changes.removed == [0, 4_500, 8_999])
        #expect(changes.inserted == [0, 4_500, 8_999])
    }

    @Test func aWholeTranscriptPastedOverWithOtherWordsIsReplacedWithoutComparingEveryPair() {
        // Given 60,000 words written over 60,000 others (the standard library's diff would keep a trace of billions)
        let old = words(60_000, "heard")
        let new = words(60_000, "typed")
        // When compared: everything went and everything came
        let changes = WordChanges.between(old, new)
        #expect(changes.removed.count == 60_000)
        #expect(changes.inserted.count == 60_000)
    }

    @Test func theWordsLeftMatchInOrderWhateverTheEdit() {
        // Given a long text whose middle was rewritten with a few of its words kept, some repeated
        let old = words(3_000)
        let new = Array(old[..<1_000]) + ["w1500", "new", "w1500", "w2100"] + words(2_500, "x") + Array(old[2_500...])
        // When compared
        let changes = WordChanges.between(old, new)
        // Then what neither side lost pairs up word for word, in order: the 1,000 words before, the 500 after, and
        // w1500 and w2100 between (the longest common run there is)
        let kept = old.indices.filter { !changes.removed.contains($0) }.map { old[$0] }
        let shown = new.indices.filter { !changes.inserted.contains($0) }.map { new[$0] }
        #expect(kept == shown)
        #expect(kept.count == 1_502)
    }
}
