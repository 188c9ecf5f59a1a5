import Foundation

/// Reads when a recording was made from its container's own tags, without decoding audio: MP4's `mvhd` creation time,
/// Matroska/WebM's `DateUTC`, RIFF's `bext` origination date and `INFO/ICRD`, ID3v2's `TDRC` (or `TYER`+`TDAT`+`TIME`)
/// and the `DATE` or `CREATION_TIME` Vorbis comment of Ogg (Vorbis, Opus) and FLAC.
public enum ContainerTags {
    /// The recording time the tags of `file` give, or nil when they give none (or the file is no container known here).
    public static func recordingTime(in file: FileBytes) -> TaggedTime? {
        let head = file.read(at: 0, count: 12)
        switch head.ascii(at: 0, count: 4) {
        case "RIFF" where head.ascii(at: 8, count: 4) == "WAVE": return RIFFTags.recordingTime(in: file)
        case "OggS": return VorbisComments.recordingTime(inOgg: file.read(at: 0, count: 256 * 1024))
        case "fLaC": return VorbisComments.recordingTime(inFLAC: file)
        default: break
        }
        if head.ascii(at: 0, count: 3) == "ID3" { return ID3Tags.recordingTime(in: file) }
        if head.bigEndian(at: 0, count: 4) == 0x1A45_DFA3 {
            return MatroskaDate.recordingTime(in: file.read(at: 0, count: 256 * 1024))
        }
        if head.ascii(at: 4, count: 4) == "ftyp" { return MP4Boxes.recordingTime(in: file) }
        return nil
    }

    /// A date written as text in a tag: `2026-03-12`, `2026-03-12T08:15:00`, `2026-03-12 08:15`, `2026:03:12 08:15:00`,
    /// with seconds' fractions and a `Z` or `±hh:mm` offset when present (which make it an instant).
    public static func parseDateText(_ text: String) -> TaggedTime? {
        let characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)))
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= characters.count else { return nil }
            var value = 0
            for character in characters[index..<(index + digits)] {
                guard let digit = character.wholeNumberValue, character.isASCII else { return nil }
                value = value * 10 + digit
            }
            index += digits
            return value
        }
        func skip(_ set: String) -> Bool {
            guard index < characters.count, set.contains(characters[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip("-:/"), let month = number(2), skip("-:/"), let dayNumber = number(2),
            let day = CalendarDay(year: year, month: month, day: dayNumber)
        else { return nil }
        guard skip("T "), let hour = number(2), skip(":"), let minute = number(2) else { return .day(day) }
        var second = 0
        if skip(":") { second = number(2) ?? 0 }
        if skip(".,") { while index < characters.count, characters[index].isNumber { index += 1 } }
        guard let time = TimeOfDay(hour: hour, minute: minute, second: second) else { return .day(day) }
        let clock = WallClock(day: day, time: time)
        if skip("Zz") { return .moment(clock.date(in: .gmt)) }
        guard index < characters.count, characters[index] == "+" || characters[index] == "-" else { return .wallClock(clock) }
        let sign = characters[index] == "-" ? -1 : 1
        index += 1
        guard let offsetHours = number(2) else { return .wallClock(clock) }
        _ = skip(":")
        let offsetMinutes = number(2) ?? 0
        guard let zone = TimeZone(secondsFromGMT: sign * (offsetHours * 3600 + offsetMinutes * 60)) else {
            return .wallClock(clock)
        }
        return .moment(clock.date(in: zone))
    }

    /// An instant read from a container, when it is a plausible recording time (not the zero many encoders write).
    static func plausibleMoment(_ date: Date) -> TaggedTime? {
        let year = Calendar.gregorian(in: .gmt).component(.year, from: date)
        return (1971...2199).contains(year) ? .moment(date) : nil
    }
}

/// MP4 (and QuickTime): the creation time in the movie header, `moov/mvhd`, in seconds since 1904 in UTC.
enum MP4Boxes {
    private static let secondsFrom1904To1970: UInt64 = 2_082_844_800

    static func recordingTime(in file: FileBytes) -> TaggedTime? {
        guard let moov = child("moov", from: 0, to: file.size, in: file),
            let mvhd = child("mvhd", from: moov.start, to: moov.end, in: file)
        else { return nil }
        let body = file.read(at: mvhd.start, count: 12)
        guard let version = body.first else { return nil }
        let created = version == 1 ? body.bigEndian(at: 4, count: 8) : body.bigEndian(at: 4, count: 4)
        guard let created, created > secondsFrom1904To1970 else { return nil }
        return ContainerTags.plausibleMoment(Date(timeIntervalSince1970: TimeInterval(created - secondsFrom1904To1970)))
    }

    /// The body of the first box of `type` between `start` and `end`.
    private static func child(_ type: String, from start: UInt64, to end: UInt64, in file: FileBytes) -> (
        start: UInt64, end: UInt64
    )? {
        var offset = start
        for _ in 0..<256 where offset + 8 <= end {
            let header = file.read(at: offset, count: 16)
            guard var size = header.bigEndian(at: 0, count: 4), let name = header.ascii(at: 4, count: 4) else { return nil }
            var headerSize: UInt64 = 8
            if size == 1 {
                guard let large = header.bigEndian(at: 8, count: 8) else { return nil }
                size = large
                headerSize = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= headerSize, offset + size <= end else { return nil }
            if name == type { return (offset + headerSize, offset + size) }
            offset += size
        }
        return nil
    }
}

/// Matroska and WebM: `Segment/Info/DateUTC`, nanoseconds since 2001-01-01 in UTC.
enum MatroskaDate {
    private static let segment: UInt64 = 0x1853_8067
    private static let info: UInt64 = 0x1549_A966
    private static let dateUTC: UInt64 = 0x4461
    private static let cluster: UInt64 = 0x1F43_B675

    static func recordingTime(in bytes: [UInt8]) -> TaggedTime? {
        var index = 0
        var scanning = bytes.count
        for _ in 0..<512 {
            guard let (id, idLength) = elementID(bytes, at: index),
                let (size, sizeLength) = elementSize(bytes, at: index + idLength)
            else { return nil }
            let body = index + idLength + sizeLength
            switch id {
            case segment, info:
                // Containers: step into them (their size may be unknown).
                if id == info, let size { scanning = min(bytes.count, body + Int(clamping: size)) }
                index = body
            case dateUTC:
                guard size == 8, let raw = bytes.bigEndian(at: body, count: 8) else { return nil }
                let nanoseconds = Int64(bitPattern: raw)
                return ContainerTags.plausibleMoment(Date(timeIntervalSinceReferenceDate: TimeInterval(nanoseconds) / 1e9))
            case cluster: return nil
            default:
                guard let size else { return nil }
                index = body + Int(clamping: size)
            }
            if index >= scanning { return nil }
        }
        return nil
    }

    /// An element id keeps its length marker: 1 to 4 bytes.
    private static func elementID(_ bytes: [UInt8], at index: Int) -> (UInt64, Int)? {
        guard index < bytes.count, bytes[index] != 0 else { return nil }
        let length = bytes[index].leadingZeroBitCount + 1
        guard length <= 4, let id = bytes.bigEndian(at: index, count: length) else { return nil }
        return (id, length)
    }

    /// A size loses its marker; all ones means unknown (nil).
    private static func elementSize(_ bytes: [UInt8], at index: Int) -> (UInt64?, Int)? {
        guard index < bytes.count, bytes[index] != 0 else { return nil }
        let length = bytes[index].leadingZeroBitCount + 1
        guard let raw = bytes.bigEndian(at: index, count: length) else { return nil }
        let value = raw & ((1 << (7 * UInt64(length))) - 1)
        return (value == (1 << (7 * UInt64(length))) - 1 ? nil : value, length)
    }
}
