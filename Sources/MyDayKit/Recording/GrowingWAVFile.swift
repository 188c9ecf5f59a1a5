import AVFoundation
import Foundation
import MyDayModels

/// A mono 16-bit PCM WAV file that grows as buffers arrive, with the plain 44-byte header.
///
/// The header's sizes are rewritten after every append, so a file a crash left open reads as a complete WAV of
/// everything written before the last buffer (`RecordingLibrary` recovers it as such).
final class WAVFileWriter {
    private static let bytesPerSample = 2

    let url: URL
    private let handle: FileHandle
    private var dataBytes: UInt32 = 0

    /// Creates (or empties) `url` with a header for `sampleRate` and no samples yet.
    init(creating url: URL, sampleRate: Int) throws {
        let header = Data(WAVHeader.bytes(pcmByteCount: 0, sampleRate: sampleRate))
        guard FileManager.default.createFile(atPath: url.path, contents: header) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
        handle = try FileHandle(forWritingTo: url)
        _ = try handle.seekToEnd()
    }

    /// Appends the samples of an interleaved 16-bit mono buffer, then the new sizes to the header.
    func append(_ buffer: AVAudioPCMBuffer) throws {
        guard let samples = buffer.int16ChannelData?[0], buffer.frameLength > 0 else { return }
        let count = Int(buffer.frameLength) * Self.bytesPerSample
        try handle.write(contentsOf: Data(bytes: samples, count: count))
        dataBytes = UInt32(clamping: UInt64(dataBytes) + UInt64(count))
        try handle.seek(toOffset: 4)
        try handle.write(contentsOf: Self.littleEndian(UInt32(clamping: UInt64(dataBytes) + 36)))
        try handle.seek(toOffset: 40)
        try handle.write(contentsOf: Self.littleEndian(dataBytes))
        _ = try handle.seekToEnd()
    }

    func close() throws {
        try handle.synchronize()
        try handle.close()
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}
