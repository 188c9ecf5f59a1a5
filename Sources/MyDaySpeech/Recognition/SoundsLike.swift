import Foundation

/// How alike two spellings sound, roughly, from spelling rules: "Przemek" and "Shemek", "Siobhan" and "Sivawn" come
/// out close; "Tuesday" and "Siobhan" far apart. A heard word is read by English rules (the recognizer writes English);
/// a person's word may also follow the rules of the language it comes from ("Ciarán" as "Kiran", "Tadhg" as "Taig").
/// Used to find where a person's words may have been heard wrongly, never to write a word into a transcript.
package enum SoundsLike {
    /// A rule a spelling may be read by, besides the English ones every key follows.
    package struct Reading: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A final "e" after a consonant is not sounded ("Neve", "Maeve").
        package static let silentFinalE = Reading(rawValue: 1 << 0)
        /// An "r" after the last vowel is not sounded, as in most of England ("Efer" for Eefa).
        package static let nonRhotic = Reading(rawValue: 1 << 1)
        /// Irish and Scottish Gaelic: "c" is always hard, "dh" is not sounded (Ciarán, Tadhg).
        package static let gaelic = Reading(rawValue: 1 << 2)
        /// "j" sounds as "y": Polish, German, Dutch, the Nordic and Slavic languages (Jürgen, Wojciech).
        package static let jAsY = Reading(rawValue: 1 << 3)
        /// "j" sounds as "h": Spanish (Joaquín).
        package static let jAsH = Reading(rawValue: 1 << 4)
    }

    /// How a heard word may be read: it is written by English rules, spoken with or without its final "r".
    package static let heardReadings: [Reading] = [[], .silentFinalE, .nonRhotic, [.silentFinalE, .nonRhotic]]
    /// How a person's word may be read: by English rules, or by those of the languages names often come from.
    package static let personalReadings: [Reading] = [[], .silentFinalE, .gaelic, .jAsY, .jAsH]

    /// 0 (nothing alike) to 1 (the same sounds): how alike a person's word and a heard word sound, by their closest
    /// readings.
    package static func similarity(word: String, heard: String) -> Double {
        similarity(keys: keys(word, readings: personalReadings), keys(heard, readings: heardReadings))
    }

    /// The same, for keys already made: the best of every pair.
    package static func similarity(keys ones: [[UInt8]], _ others: [[UInt8]]) -> Double {
        var best = 0.0
        for one in ones {
            for other in others { best = max(best, similarity(key: one, other)) }
        }
        return best
    }

    /// How alike two keys are, from their edit distance: 0 (nothing alike) to 1 (the same).
    package static func similarity(key one: [UInt8], _ other: [UInt8]) -> Double {
        let longest = max(one.count, other.count)
        guard longest > 0 else { return 0 }
        return 1 - Double(editDistance(one, other)) / Double(longest)
    }

    /// The distinct keys of a spelling read each of the ways given.
    package static func keys(_ text: String, readings: [Reading]) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        for reading in readings {
            let made = key(text, reading: reading)
            if !keys.contains(made) { keys.append(made) }
        }
        return keys
    }

    /// The consonant sounds of a spelling, with one mark for where vowels were, as ASCII bytes: a few letter groups
    /// spelled differently across languages and sounded alike ("sh", "sch", "sz", "si" before a vowel; "ph", "v", "bh";
    /// "c" before e, i or y and "s", "z") share one byte. `reading` adds rules besides English's.
    package static func key(_ text: String, reading: Reading = []) -> [UInt8] {
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
            case UInt8(ascii: "g") where next == UInt8(ascii: "h"),
                UInt8(ascii: "d") where next == UInt8(ascii: "h") && reading.contains(.gaelic):
                used = 2
            case UInt8(ascii: "c")
            where [UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "y")].contains(next) && !reading.contains(.gaelic):
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
            case UInt8(ascii: "j") where reading.contains(.jAsY):
                add(UInt8(ascii: "a"))
            case UInt8(ascii: "j") where reading.contains(.jAsH):
                break
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
        let last = letters.count - 1
        if reading.contains(.nonRhotic), last >= 2, letters[last] == UInt8(ascii: "r"), isVowel(letters[last - 1]) {
            key.removeLast()
        }
        if reading.contains(.silentFinalE), last >= 2, letters[last] == UInt8(ascii: "e"), !isVowel(letters[last - 1]),
            letters[..<(last - 1)].contains(where: isVowel), key.last == UInt8(ascii: "a")
        {
            key.removeLast()
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
