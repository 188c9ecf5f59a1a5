import Foundation

/// A word of a text, as search sees it: its folded form and where it stands in the text.
public struct SearchToken: Sendable, Equatable {
    /// Lower case, without diacritics: what matching compares.
    public let folded: String
    /// Where the word is, in UTF-16 code units (what JavaScript strings and `NSRange` count).
    public let utf16Range: Range<Int>
}

/// How search cuts text into words and folds them, the way SQLite's `unicode61 remove_diacritics 2` tokenizer and
/// PostgreSQL's `unaccent` + `simple` configuration do: a word is a run of letters, digits and combining marks;
/// case and accents do not count ("Über" is "uber", "café" is "cafe").
public enum SearchText {
    public static func tokens(in text: String) -> [SearchToken] {
        var text = text
        // Most diaries are ASCII throughout: their words are found and lower-cased byte by byte, a fifth of the cost.
        if let tokens = text.withUTF8({ $0.allSatisfy { $0 < 0x80 } ? asciiTokens(in: $0) : nil }) { return tokens }
        return scalarTokens(in: text)
    }

    /// The words of a text's first `bytes` bytes when those are ASCII and the text is longer, leaving out a word the
    /// cut may have split; nil otherwise.
    public static func leadingASCIITokens(in text: String, bytes: Int) -> [SearchToken]? {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count > bytes else { return nil }
            let head = UnsafeBufferPointer(rebasing: utf8.prefix(bytes))
            guard head.allSatisfy({ $0 < 0x80 }) else { return nil }
            var tokens = asciiTokens(in: head)
            if tokens.last?.utf16Range.upperBound == bytes { tokens.removeLast() }
            return tokens
        }
    }

    /// The tokens of ASCII text: runs of letters and digits, lower-cased; a byte's offset is its UTF-16 offset.
    static func asciiTokens(in bytes: UnsafeBufferPointer<UInt8>) -> [SearchToken] {
        var tokens: [SearchToken] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index].isASCIILetterOrDigit else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, bytes[index].isASCIILetterOrDigit { index += 1 }
            let folded = String(unsafeUninitializedCapacity: index - start) { folded in
                for offset in 0..<(index - start) {
                    let byte = bytes[start + offset]
                    folded[offset] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                }
                return index - start
            }
            tokens.append(SearchToken(folded: folded, utf16Range: start..<index))
        }
        return tokens
    }

    /// The tokens of any text, scalar by scalar.
    static func scalarTokens(in text: String) -> [SearchToken] {
        var tokens: [SearchToken] = []
        var word = String.UnicodeScalarView()
        var start = 0
        var offset = 0
        func finish() {
            guard !word.isEmpty else { return }
            tokens.append(SearchToken(folded: fold(String(word)), utf16Range: start..<offset))
            word.removeAll()
        }
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                if word.isEmpty { start = offset }
                word.append(scalar)
            } else {
                finish()
            }
            offset += scalar.utf16.count
        }
        finish()
        return tokens
    }

    /// The words of `text`, folded.
    public static func words(in text: String) -> [String] { tokens(in: text).map(\.folded) }

    /// Lower case without diacritics.
    public static func fold(_ word: String) -> String {
        // Most words are ASCII: lower-cased byte by byte, without Unicode decomposition (the dearest part of a search).
        if word.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: word.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        var kept = String.UnicodeScalarView()
        for scalar in word.decomposedStringWithCanonicalMapping.unicodeScalars where !isMark(scalar) {
            kept.append(scalar)
        }
        return String(kept).lowercased()
    }

    /// A name however it is written: case aside, the accents of Latin, Greek and Cyrillic letters ("Siobhán" and
    /// "siobhan" are one name), the vowel points of Hebrew and Arabic, and emoji's variation selectors, all of which
    /// people write or leave out. Other scripts keep their marks, which there make another name: "राम" and "रमा",
    /// "カナ" and "ガナ" are two. A person's vocabulary counts its words by this key.
    public static func nameKey(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return fold(text) }
        var kept = String.UnicodeScalarView()
        var base: Unicode.Scalar?
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if isOptionalMark(scalar) { continue }
            if isMark(scalar) {
                if let base, takesAccents(base) { continue }
            } else {
                base = scalar
            }
            kept.append(scalar)
        }
        return String(kept).precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Hebrew points and cantillation, Arabic harakat and the superscript alef, and variation selectors.
    private static func isOptionalMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x591...0x5C7, 0x64B...0x65F, 0x670, 0xFE00...0xFE0F: true
        default: false
        }
    }

    /// Latin, Greek and Cyrillic letters, whose marks are accents a person may or may not type.
    private static func takesAccents(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x24F, 0x1E00...0x1EFF, 0x370...0x3FF, 0x1F00...0x1FFF, 0x400...0x52F: true
        default: false
        }
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return UInt8(scalar.value).isASCIILetterOrDigit }
        let properties = scalar.properties
        if properties.isAlphabetic || isMark(scalar) { return true }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .privateUse: return true
        default: return false
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
