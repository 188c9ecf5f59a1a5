import Foundation

/// Writes JSON bytes the way the API's `JSONEncoder` does (compact, slashes unescaped, the same escapes and number
/// forms), for the answers that are read most and cost most to encode through `Codable`: entry lists and searches.
/// Callers write keys in sorted order themselves. `JSONWriterTests` compares the bytes with `JSONEncoder`'s.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":`; the key must need no escaping.
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[start..<index])
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Whole numbers below 2^53 without a fraction ("12", "-0"), others as Swift prints them ("0.1", "1e+16").
    mutating func double(_ value: Double) {
        if value.rounded() == value && abs(value) < 9_007_199_254_740_992 {
            if value == 0 && value.sign == .minus {
                raw("-0")
            } else {
                int(Int(value))
            }
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// `["…","…"]`.
    mutating func strings(_ values: [String]) {
        raw("[")
        var first = true
        for value in values {
            separator(&first)
            string(value)
        }
        raw("]")
    }

    /// `,"key":"value"` when there is a value; nothing when there is none (as `encodeIfPresent` leaves it out).
    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        raw(",")
        key(name)
        string(value)
    }

    /// `,"key":n` when there is a number; nothing when there is none.
    mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        raw(",")
        key(name)
        int(value)
    }

    /// A comma before every member but the first of an object or array.
    mutating func separator(_ first: inout Bool) {
        if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
