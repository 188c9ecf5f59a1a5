import Foundation

/// RIFF/WAVE: the Broadcast Wave `bext` origination date and time, else `LIST/INFO/ICRD`.
enum RIFFTags {
    static func recordingTime(in file: FileBytes) -> TaggedTime? {
        var offset: UInt64 = 12
        var created: TaggedTime?
        for _ in 0..<256 where offset + 8 <= file.size {
            let header = file.read(at: offset, count: 12)
            guard let id = header.ascii(at: 0, count: 4), let size = header.littleEndian(at: 4, count: 4) else { return created }
            let body = offset + 8
            if id == "bext", size >= 338 {
                let bext = file.read(at: body + 320, count: 18)
                if let date = bext.ascii(at: 0, count: 10), let time = bext.ascii(at: 10, count: 8),
                    let found = ContainerTags.parseDateText("\(date) \(time.replacingOccurrences(of: "-", with: ":"))")
                {
                    return found
                }
            } else if id == "LIST", header.ascii(at: 8, count: 4) == "INFO" {
                created = created ?? infoCreationDate(file.read(at: body + 4, count: Int(min(size, 65_536)) - 4))
            }
            offset = body + size + size % 2
        }
        return created
    }

    private static func infoCreationDate(_ bytes: [UInt8]) -> TaggedTime? {
        var index = 0
        while let id = bytes.ascii(at: index, count: 4), let size = bytes.littleEndian(at: index + 4, count: 4) {
            let length = Int(size)
            if id == "ICRD", index + 8 + length <= bytes.count {
                return String(decoding: bytes[(index + 8)..<(index + 8 + length)], as: UTF8.self).nulTrimmed
                    .flatMap(ContainerTags.parseDateText)
            }
            index += 8 + length + length % 2
        }
        return nil
    }
}

/// ID3v2 (MP3 and ADTS AAC): `TDRC` (v2.4), or `TYER`, `TDAT` and `TIME` (v2.3; `TYE`, `TDA`, `TIM` in v2.2).
enum ID3Tags {
    static func recordingTime(in file: FileBytes) -> TaggedTime? {
        let header = file.read(at: 0, count: 10)
        guard header.count == 10, let size = syncsafe(header, at: 6) else { return nil }
        let version = header[3]
        let tag = file.read(at: 10, count: Int(min(size, 1 << 20)))
        var index = 0
        if header[5] & 0x40 != 0, version >= 3 {
            guard let extended = version == 4 ? syncsafe(tag, at: 0) : tag.bigEndian(at: 0, count: 4).map({ $0 + 4 }) else {
                return nil
            }
            index = Int(extended)
        }
        let idLength = version == 2 ? 3 : 4
        let headerLength = version == 2 ? 6 : 10
        var frames: [String: String] = [:]
        while index + headerLength <= tag.count, let id = tag.ascii(at: index, count: idLength), id.first != "\0" {
            let sizeValue =
                version == 4 ? syncsafe(tag, at: index + 4) : tag.bigEndian(at: index + idLength, count: idLength == 3 ? 3 : 4)
            guard let sizeValue else { break }
            let start = index + headerLength
            let end = start + Int(sizeValue)
            guard end <= tag.count else { break }
            if id.hasPrefix("T"), start < end { frames[id] = text(Array(tag[start..<end])) }
            index = end
        }
        if let recorded = frames["TDRC"] ?? frames["TDOR"], let found = ContainerTags.parseDateText(recorded) { return found }
        guard let year = frames["TYER"] ?? frames["TYE"], let dayMonth = frames["TDAT"] ?? frames["TDA"], dayMonth.count == 4
        else { return nil }
        let date = "\(year)-\(dayMonth.suffix(2))-\(dayMonth.prefix(2))"
        if let time = frames["TIME"] ?? frames["TIM"], time.count == 4 {
            return ContainerTags.parseDateText("\(date) \(time.prefix(2)):\(time.suffix(2))")
        }
        return ContainerTags.parseDateText(date)
    }

    private static func syncsafe(_ bytes: [UInt8], at index: Int) -> UInt64? {
        guard index + 4 <= bytes.count else { return nil }
        return bytes[index..<(index + 4)].reduce(0) { $0 << 7 | UInt64($1 & 0x7F) }
    }

    /// A text frame's value: its first byte names the encoding.
    private static func text(_ frame: [UInt8]) -> String? {
        let body = Array(frame.dropFirst())
        let decoded: String?
        switch frame[0] {
        case 0: decoded = String(bytes: body, encoding: .isoLatin1)
        case 1: decoded = String(bytes: body, encoding: .utf16)
        case 2: decoded = String(bytes: body, encoding: .utf16BigEndian)
        default: decoded = String(bytes: body, encoding: .utf8)
        }
        return decoded?.nulTrimmed
    }
}

/// Vorbis comments, in the second packet of an Ogg stream (Vorbis, Opus) or a FLAC metadata block.
enum VorbisComments {
    static func recordingTime(inOgg bytes: [UInt8]) -> TaggedTime? {
        guard let packet = secondPacket(ofOgg: bytes) else { return nil }
        if packet.starts(with: [3] + Array("vorbis".utf8)) { return recordingTime(inComments: Array(packet.dropFirst(7))) }
        if packet.starts(with: Array("OpusTags".utf8)) { return recordingTime(inComments: Array(packet.dropFirst(8))) }
        return nil
    }

    static func recordingTime(inFLAC file: FileBytes) -> TaggedTime? {
        var offset: UInt64 = 4
        for _ in 0..<64 {
            let header = file.read(at: offset, count: 4)
            guard header.count == 4, let length = header.bigEndian(at: 1, count: 3) else { return nil }
            if header[0] & 0x7F == 4 {
                return recordingTime(inComments: file.read(at: offset + 4, count: Int(min(length, 1 << 20))))
            }
            if header[0] & 0x80 != 0 { return nil }
            offset += 4 + length
        }
        return nil
    }

    /// `vendor length, vendor, count, (length, KEY=value)…`, all lengths little-endian.
    private static func recordingTime(inComments bytes: [UInt8]) -> TaggedTime? {
        guard let vendor = bytes.littleEndian(at: 0, count: 4) else { return nil }
        var index = 4 + Int(vendor)
        guard let count = bytes.littleEndian(at: index, count: 4) else { return nil }
        index += 4
        var values: [String: String] = [:]
        for _ in 0..<min(count, 1000) {
            guard let length = bytes.littleEndian(at: index, count: 4), index + 4 + Int(length) <= bytes.count else { break }
            let comment = String(decoding: bytes[(index + 4)..<(index + 4 + Int(length))], as: UTF8.self)
            if let equals = comment.firstIndex(of: "=") {
                values[comment[..<equals].uppercased()] = String(comment[comment.index(after: equals)...])
            }
            index += 4 + Int(length)
        }
        return ["CREATION_TIME", "DATE"].lazy.compactMap { values[$0].flatMap(ContainerTags.parseDateText) }.first
    }

    /// The second packet of the first logical stream, joined from the segments of as many pages as it spans.
    private static func secondPacket(ofOgg bytes: [UInt8]) -> [UInt8]? {
        var offset = 0
        var packets: [[UInt8]] = []
        var current: [UInt8] = []
        while packets.count < 2, bytes.ascii(at: offset, count: 4) == "OggS", offset + 27 <= bytes.count {
            let segments = Int(bytes[offset + 26])
            guard offset + 27 + segments <= bytes.count else { return nil }
            var data = offset + 27 + segments
            for lacing in bytes[(offset + 27)..<(offset + 27 + segments)] {
                guard data + Int(lacing) <= bytes.count else { return nil }
                current += bytes[data..<(data + Int(lacing))]
                data += Int(lacing)
                if lacing < 255 {
                    packets.append(current)
                    current = []
                }
            }
            offset = data
        }
        return packets.count >= 2 ? packets[1] : nil
    }
}

extension String {
    fileprivate var nulTrimmed: String? {
        let trimmed = trimmingCharacters(in: CharacterSet(charactersIn: "\0").union(.whitespaces))
        return trimmed.isEmpty ? nil : trimmed
    }
}
