import Foundation
import MyDayKit
import Testing

@Suite struct WordWrapTests {
    @Test func wordsWrapWhereTheNextWouldNotFitAndALongWordHasItsOwnLine() {
        // Given three words 40 points wide, the second taller, in 100 points with 4 between words and 6 between lines
        let sizes = [CGSize(width: 40, height: 20), CGSize(width: 40, height: 24), CGSize(width: 40, height: 20)]
        let lines = WordWrap.lines(of: sizes, width: 100, spacing: 4, lineSpacing: 6)
        // Then two fit on the first line, as tall as its tallest word, and the third starts the next
        #expect(lines.map { $0.words.map(\.index) } == [[0, 1], [2]])
        #expect(lines[0].words.map(\.origin) == [CGPoint(x: 0, y: 0), CGPoint(x: 44, y: 0)])
        #expect(lines[0].width == 84 && lines[0].height == 24)
        #expect(lines[1].words.map(\.origin) == [CGPoint(x: 0, y: 30)])
        #expect(WordWrap.size(of: lines, width: nil, lineSpacing: 6) == CGSize(width: 84, height: 50))
        // And a word wider than the paragraph is not split, and does not push an empty line before it
        let wide = WordWrap.lines(
            of: [CGSize(width: 150, height: 20), CGSize(width: 10, height: 20)], width: 100, spacing: 4, lineSpacing: 6)
        #expect(wide.map { $0.words.map(\.index) } == [[0], [1]])
        #expect(WordWrap.lines(of: [], width: 100, spacing: 4, lineSpacing: 6).count == 1)
    }
}
