import Foundation

extension UUID {
    /// The UUID as the database and the API write it: lowercase `8-4-4-4-12` hex. Written by hand: Foundation's
    /// `uuidString` formats with `sprintf`, which cost a tenth of a listing's time.
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        text[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    text[index] = Self.hexDigits[Int(byte >> 4)]
                    text[index + 1] = Self.hexDigits[Int(byte & 0x0f)]
                    index += 2
                }
                return index
            }
        }
    }

    /// A UUID from `8-4-4-4-12` hex in either case; nil for anything else. Read by hand: Foundation's
    /// `UUID(uuidString:)` parses with `sscanf`.
    public init?(text: String) {
        var text = text
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return false }
            return withUnsafeMutableBytes(of: &value) { bytes in
                var index = 0
                for position in 0..<16 {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        guard utf8[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = utf8[index].hexDigitValue, let low = utf8[index + 1].hexDigitValue else { return false }
                    bytes[position] = high << 4 | low
                    index += 2
                }
                return true
            }
        }
        guard parsed else { return nil }
        self.init(uuid: value)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
