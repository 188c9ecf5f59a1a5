/// Which words of one text went and which came in another: a diff of words whose cost stays bounded however long
/// both texts are and however much differs.
///
/// The standard library's `difference(from:)` keeps a trace that grows with the square of the number of changes: a
/// whole transcript pasted over with other words (100,000 characters) would take gigabytes. So the words both texts
/// begin and end with are set aside first, the rest is cut at the words that occur once in each text and in the same
/// order (the anchors a patience diff uses), and only stretches of at most `longestCompared` words are compared word
/// for word; a longer stretch between anchors counts as replaced.
enum WordChanges {
    static let longestCompared = 2_000

    /// Offsets of the removed words of `old` and of the inserted words of `new`; the others match in order.
    static func between(_ old: [String], _ new: [String]) -> (removed: Set<Int>, inserted: Set<Int>) {
        var changes = (removed: Set<Int>(), inserted: Set<Int>())
        var (oldPart, newPart) = (old.indices, new.indices)
        while let first = oldPart.first, let other = newPart.first, old[first] == new[other] {
            oldPart = oldPart.dropFirst()
            newPart = newPart.dropFirst()
        }
        while let last = oldPart.last, let other = newPart.last, old[last] == new[other] {
            oldPart = oldPart.dropLast()
            newPart = newPart.dropLast()
        }
        var (oldStart, newStart) = (oldPart.lowerBound, newPart.lowerBound)
        for (oldAnchor, newAnchor) in anchors(old, oldPart, new, newPart) + [(oldPart.upperBound, newPart.upperBound)] {
            compare(old, oldStart..<oldAnchor, new, newStart..<newAnchor, into: &changes)
            (oldStart, newStart) = (oldAnchor + 1, newAnchor + 1)
        }
        return changes
    }

    /// A stretch between two matched words: compared word for word when short enough, else all of it replaced.
    private static func compare(
        _ old: [String], _ oldPart: Range<Int>, _ new: [String], _ newPart: Range<Int>,
        into changes: inout (removed: Set<Int>, inserted: Set<Int>)
    ) {
        guard !oldPart.isEmpty, !newPart.isEmpty, oldPart.count + newPart.count <= longestCompared else {
            changes.removed.formUnion(oldPart)
            changes.inserted.formUnion(newPart)
            return
        }
        for change in Array(new[newPart]).difference(from: Array(old[oldPart])) {
            switch change {
            case .remove(let offset, _, _): changes.removed.insert(oldPart.lowerBound + offset)
            case .insert(let offset, _, _): changes.inserted.insert(newPart.lowerBound + offset)
            }
        }
    }

    /// The longest run, in the order of both texts, of words that occur exactly once in each part.
    private static func anchors(_ old: [String], _ oldPart: Range<Int>, _ new: [String], _ newPart: Range<Int>)
        -> [(Int, Int)]
    {
        let once = { (words: [String], part: Range<Int>) -> [String: Int] in
            var seen: [String: Int] = [:]
            var repeated: Set<String> = []
            for index in part where !repeated.contains(words[index]) {
                if seen.updateValue(index, forKey: words[index]) != nil {
                    seen[words[index]] = nil
                    repeated.insert(words[index])
                }
            }
            return seen
        }
        let newOnce = once(new, newPart)
        let pairs = once(old, oldPart).compactMap { word, index in newOnce[word].map { (index, $0) } }.sorted { $0.0 < $1.0 }
        // The longest increasing run of the new offsets (patience sorting): the piles' tops, and each pair's predecessor.
        var tops: [Int] = []
        var previous = [Int?](repeating: nil, count: pairs.count)
        for (position, pair) in pairs.enumerated() {
            var (low, high) = (0, tops.count)
            while low < high {
                let middle = (low + high) / 2
                if pairs[tops[middle]].1 < pair.1 { low = middle + 1 } else { high = middle }
            }
            previous[position] = low > 0 ? tops[low - 1] : nil
            if low == tops.count { tops.append(position) } else { tops[low] = position }
        }
        var run: [(Int, Int)] = []
        var position = tops.last
        while let current = position {
            run.append(pairs[current])
            position = previous[current]
        }
        return run.reversed()
    }
}
