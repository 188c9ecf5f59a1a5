import Foundation

/// Follows a transcript while its audio plays: which word is being said, where to play from when a word is tapped, and
/// which words the recognizer was unsure of (quietly marked, so a person knows where to listen again).
public struct TranscriptFollower: Sendable, Equatable {
    public let words: [TimedWord]
    /// Below this probability a word is marked as unsure.
    public static let unsureBelow = 0.5
    /// The indices of the timed words, in time order.
    private let timed: [Int]

    public init(words: [TimedWord]) {
        self.words = words
        timed = words.indices.filter { words[$0].start != nil }
    }

    /// The word being said at `time` (seconds): the last timed word that started at or before it, while it lasts or
    /// until the next one starts; nil before the first word.
    public func currentWord(at time: Double) -> Int? {
        var low = 0
        var high = timed.count
        while low < high {
            let middle = (low + high) / 2
            if words[timed[middle]].start! <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : timed[low - 1]
    }

    /// Where to play from when the word at `index` is tapped: its own start, or the start of the nearest timed word
    /// before it (a typed word has no time of its own); 0 when none comes before.
    public func playbackStart(forWordAt index: Int) -> Double {
        guard words.indices.contains(index) else { return 0 }
        for candidate in stride(from: index, through: 0, by: -1) {
            if let start = words[candidate].start { return start }
        }
        return 0
    }

    /// Whether the recognizer was unsure of the word at `index`.
    public func isUnsure(_ index: Int) -> Bool {
        guard words.indices.contains(index), let probability = words[index].probability else { return false }
        return probability < Self.unsureBelow
    }
}
