/// The credential of an `Authorization: Bearer <token>` header (the scheme in any case, spaces and tabs around the
/// token ignored); nil for any other header. Read without Foundation's string bridging, which cost a fiftieth of a
/// listing.
enum BearerCredential {
    static func token(in header: String?) -> Substring? {
        guard let header else { return nil }
        let utf8 = header.utf8
        let scheme = "bearer ".utf8
        guard utf8.count > scheme.count,
            zip(utf8.prefix(scheme.count), scheme).allSatisfy({ sent, expected in
                sent == expected || (expected != UInt8(ascii: " ") && sent | 0x20 == expected)
            })
        else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = utf8.index(utf8.startIndex, offsetBy: scheme.count)
        var end = utf8.endIndex
        while start < end, isBlank(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isBlank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return start < end ? Substring(header[start..<end]) : nil
    }
}
