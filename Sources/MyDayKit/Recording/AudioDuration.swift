import Foundation

/// Reads how long a WAV or MP4/M4A file plays from its headers, without decoding; nil when it cannot tell.
///
/// A WAV whose header was never finished (a crash mid-recording) is measured from the bytes after
/// its `data` chunk header. An MP4 without its `moov` box (the same crash) has no readable duration.
public enum AudioDuration {
    public static func of(_ file: URL) -> TimeInterval? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count == 12 else { return nil }
        if head.ascii(0, 4) == "RIFF" && head.ascii(8, 4) == "WAVE" { return wavDuration(handle) }
        if head.ascii(4, 4) == "ftyp" { return mp4Duration(handle) }
        return nil
    }

    private static func wavDuration(_ handle: FileHandle) -> TimeInterval? {
        var byteRate: UInt32?
        var offset: UInt64 = 12
        let fileSize = (try? handle.seekToEnd()) ?? 0
        while offset + 8 <= fileSize {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 8), header.count == 8
            else { return nil }
            let size = UInt64(header.uint32LE(4))
            switch header.ascii(0, 4) {
            case "fmt ":
                guard let format = try? handle.read(upToCount: 12), format.count == 12 else { return nil }
                byteRate = format.uint32LE(8)
            case "data":
                guard let byteRate, byteRate > 0 else { return nil }
                let available = fileSize - offset - 8
                let bytes = size == 0 || size > available ? available : size
                return TimeInterval(bytes) / TimeInterval(byteRate)
            default: break
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    private static func mp4Duration(_ handle: FileHandle) -> TimeInterval? {
        let fileSize = (try? handle.seekToEnd()) ?? 0
        guard let moov = box("moov", in: handle, from: 0, to: fileSize),
            let mvhd = box("mvhd", in: handle, from: moov.contentStart, to: moov.end),
            (try? handle.seek(toOffset: mvhd.contentStart)) != nil,
            let content = try? handle.read(upToCount: 32), content.count >= 20
        else { return nil }
        let timescale: UInt32
        let duration: UInt64
        if content[content.startIndex] == 1 {
            guard content.count >= 32 else { return nil }
            timescale = content.uint32BE(20)
            duration = UInt64(content.uint32BE(24)) << 32 | UInt64(content.uint32BE(28))
        } else {
            timescale = content.uint32BE(12)
            duration = UInt64(content.uint32BE(16))
        }
        guard timescale > 0 else { return nil }
        return TimeInterval(duration) / TimeInterval(timescale)
    }

    /// The first box of `type` between two offsets: where its content starts and where it ends.
    private static func box(_ type: String, in handle: FileHandle, from start: UInt64, to end: UInt64)
        -> (contentStart: UInt64, end: UInt64)?
    {
        var offset = start
        while offset + 8 <= end {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 16), header.count >= 8
            else { return nil }
            var size = UInt64(header.uint32BE(0))
            var headerSize: UInt64 = 8
            if size == 1 {
                guard header.count == 16 else { return nil }
                size = UInt64(header.uint32BE(8)) << 32 | UInt64(header.uint32BE(12))
                headerSize = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= headerSize else { return nil }
            if header.ascii(4, 4) == type { return (offset + headerSize, min(offset + size, end)) }
            offset += size
        }
        return nil
    }
}

extension Data {
    fileprivate func ascii(_ offset: Int, _ count: Int) -> String {
        let start = startIndex + offset
        return String(decoding: self[start..<start + count], as: UTF8.self)
    }

    fileprivate func uint32LE(_ offset: Int) -> UInt32 {
        let start = startIndex + offset
        return self[start..<start + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    fileprivate func uint32BE(_ offset: Int) -> UInt32 {
        let start = startIndex + offset
        return self[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
