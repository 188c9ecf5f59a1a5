import Foundation

/// Reads parts of a file by offset, so a container's tags are found without reading its audio.
public struct FileBytes {
    private let handle: FileHandle
    /// The file's length in bytes.
    public let size: UInt64

    public init(_ handle: FileHandle) {
        self.handle = handle
        size = (try? handle.seekToEnd()) ?? 0
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file); empty past it.
    public func read(at offset: UInt64, count: Int) -> [UInt8] {
        guard offset < size, count > 0, (try? handle.seek(toOffset: offset)) != nil else { return [] }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }
}

extension Array where Element == UInt8 {
    /// The big-endian unsigned integer of `count` bytes at `offset`; nil past the end.
    func bigEndian(at offset: Int, count: Int) -> UInt64? {
        guard offset >= 0, offset + count <= self.count else { return nil }
        return self[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The little-endian unsigned integer of `count` bytes at `offset`; nil past the end.
    func littleEndian(at offset: Int, count: Int) -> UInt64? {
        guard offset >= 0, offset + count <= self.count else { return nil }
        return self[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The bytes at `offset` as ASCII text, when they are.
    func ascii(at offset: Int, count: Int) -> String? {
        guard offset >= 0, offset + count <= self.count else { return nil }
        return String(bytes: self[offset..<(offset + count)], encoding: .ascii)
    }
}
