import Foundation

/// How alike two spellings sound, roughly, from English spelling rules: "Przemek" and "Shemek", "Siobhan" and
/// "Sivawn" come out close; "Tuesday" and "Siobhan" far apart. Used to find where a person's words may have been
/// heard wrongly, never to write a word into a transcript.
package enum SoundsLike {
    /// 0 (nothing alike) to 1 (the same sounds), from the edit distance of the two phonetic keys.
    package static func similarity(_ one: String, _ other: String) -> Double {
        similarity(keys: key(one), key(other))
    }

    /// The same, for keys already made.
    package static func similarity(keys one: [UInt8], _ other: [UInt8]) -> Double {
        let longest = max(one.count, other.count)
        guard longest > 0 else { return 0 }
        return 1 - Double(editDistance(one, other)) / Double(longest)
    }

    /// The consonant sounds of a spelling, with one mark for where vowels were, as ASCII bytes: a few letter groups
    /// spelled differently across languages and sounded alike ("sh", "sch", "sz", "si" before a vowel; "ph", "v", "bh";
    /// "c" before e, i or y and "s", "z") share one byte.
    package static func key(_ text: String) -> [UInt8] {
        let letters = Array(
            text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased().utf8.filter {
                (0x61...0x7A).contains($0)
            })
        var key: [UInt8] = []
        func add(_ byte: UInt8) {
            if key.last != byte { key.append(byte) }
        }
        func at(_ index: Int) -> UInt8 { index < letters.count ? letters[index] : 0 }
        func isVowel(_ byte: UInt8) -> Bool { "aeiouy".utf8.contains(byte) }
        var index = 0
        while index < letters.count {
            let letter = letters[index]
            let next = at(index + 1)
            var used = 1
            switch letter {
            case _ where isVowel(letter):
                add(UInt8(ascii: "a"))
            case UInt8(ascii: "s") where next == UInt8(ascii: "h"), UInt8(ascii: "s") where next == UInt8(ascii: "z"),
                UInt8(ascii: "c") where next == UInt8(ascii: "h"), UInt8(ascii: "c") where next == UInt8(ascii: "z"),
                UInt8(ascii: "r") where next == UInt8(ascii: "z"):
                add(UInt8(ascii: "x"))
                used = 2
            case UInt8(ascii: "s") where next == UInt8(ascii: "c") && at(index + 2) == UInt8(ascii: "h"):
                add(UInt8(ascii: "x"))
                used = 3
            case UInt8(ascii: "s") where next == UInt8(ascii: "i") && isVowel(at(index + 2)):
                add(UInt8(ascii: "x"))
                used = 2
            case UInt8(ascii: "p") where next == UInt8(ascii: "h"), UInt8(ascii: "b") where next == UInt8(ascii: "h"),
                UInt8(ascii: "m") where next == UInt8(ascii: "h"):
                add(UInt8(ascii: "f"))
                used = 2
            case UInt8(ascii: "t") where next == UInt8(ascii: "h"):
                add(UInt8(ascii: "t"))
                used = 2
            case UInt8(ascii: "g") where next == UInt8(ascii: "h"):
                used = 2
            case UInt8(ascii: "c") where [UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "y")].contains(next):
                add(UInt8(ascii: "s"))
            case UInt8(ascii: "c"), UInt8(ascii: "q"), UInt8(ascii: "k"):
                add(UInt8(ascii: "k"))
            case UInt8(ascii: "x"):
                add(UInt8(ascii: "k"))
                add(UInt8(ascii: "s"))
            case UInt8(ascii: "z"):
                add(UInt8(ascii: "s"))
            case UInt8(ascii: "v"), UInt8(ascii: "w"):
                add(UInt8(ascii: "f"))
            case UInt8(ascii: "j"):
                add(UInt8(ascii: "g"))
            case UInt8(ascii: "d"):
                add(UInt8(ascii: "t"))
            case UInt8(ascii: "b"):
                add(UInt8(ascii: "p"))
            case UInt8(ascii: "h"):
                break
            default:
                add(letter)
            }
            index += used
        }
        return key
    }

    /// Levenshtein distance between two short byte strings.
    private static func editDistance(_ one: [UInt8], _ other: [UInt8]) -> Int {
        guard !one.isEmpty else { return other.count }
        guard !other.isEmpty else { return one.count }
        var previous = Array(0...other.count)
        var current = [Int](repeating: 0, count: other.count + 1)
        for i in 1...one.count {
            current[0] = i
            for j in 1...other.count {
                let substitution = previous[j - 1] + (one[i - 1] == other[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[other.count]
    }
}
