import Foundation
import MyDayModels

/// A mono 16-bit PCM WAV file that grows as a recording's samples arrive, with the plain 44-byte header.
///
/// The header's sizes are rewritten after every append, so a file a crash left open reads as a complete WAV of
/// everything appended before it (`RecordingLibrary.recoverInterrupted` recovers it as such).
public final class GrowingWAVFile {
    public let url: URL
    private let handle: FileHandle
    private var dataBytes: UInt32 = 0

    /// Creates (or empties) `url` with a header for `sampleRate` and no samples yet.
    public init(creating url: URL, sampleRate: Int) throws {
        let header = Data(WAVHeader.bytes(pcmByteCount: 0, sampleRate: sampleRate))
        guard FileManager.default.createFile(atPath: url.path, contents: header) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
        handle = try FileHandle(forWritingTo: url)
        _ = try handle.seekToEnd()
    }

    /// Appends `pcm` (16-bit little-endian mono samples), then the new sizes to the header.
    public func append(pcm: Data) throws {
        guard !pcm.isEmpty else { return }
        try handle.write(contentsOf: pcm)
        dataBytes = UInt32(clamping: UInt64(dataBytes) + UInt64(pcm.count))
        try handle.seek(toOffset: 4)
        try handle.write(contentsOf: Self.littleEndian(UInt32(clamping: UInt64(dataBytes) + 36)))
        try handle.seek(toOffset: 40)
        try handle.write(contentsOf: Self.littleEndian(dataBytes))
        _ = try handle.seekToEnd()
    }

    /// Flushes the file to the disk and closes it.
    public func close() throws {
        try handle.synchronize()
        try handle.close()
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}
