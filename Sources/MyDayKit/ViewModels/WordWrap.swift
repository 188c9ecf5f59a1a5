import Foundation

/// Words laid out as in a paragraph: left to right, a new line where the next word would not fit.
public enum WordWrap {
    /// One line: where each word goes, and how big the line is.
    public struct Line: Sendable, Equatable {
        /// Each word's index and its origin, relative to the paragraph's top left.
        public var words: [Placed] = []
        public var width: CGFloat = 0
        public var height: CGFloat = 0
    }

    /// A word where it goes.
    public struct Placed: Sendable, Equatable {
        public var index: Int
        public var origin: CGPoint
    }

    /// The lines of words of `sizes` within `width`, `spacing` apart on a line and `lineSpacing` between lines. A word
    /// wider than the width has a line of its own.
    public static func lines(of sizes: [CGSize], width: CGFloat, spacing: CGFloat, lineSpacing: CGFloat) -> [Line] {
        var lines: [Line] = [Line()]
        var top: CGFloat = 0
        for (index, size) in sizes.enumerated() {
            if !lines[lines.count - 1].words.isEmpty, lines[lines.count - 1].width + spacing + size.width > width {
                top += lines[lines.count - 1].height + lineSpacing
                lines.append(Line())
            }
            var line = lines[lines.count - 1]
            let x = line.words.isEmpty ? 0 : line.width + spacing
            line.words.append(Placed(index: index, origin: CGPoint(x: x, y: top)))
            line.width = x + size.width
            line.height = max(line.height, size.height)
            lines[lines.count - 1] = line
        }
        return lines
    }

    /// The size of the paragraph of `lines`: as wide as `width` when one is given, else its widest line.
    public static func size(of lines: [Line], width: CGFloat?, lineSpacing: CGFloat) -> CGSize {
        CGSize(
            width: width ?? lines.map(\.width).max() ?? 0,
            height: lines.map(\.height).reduce(0, +) + lineSpacing * CGFloat(max(lines.count - 1, 0)))
    }
}
