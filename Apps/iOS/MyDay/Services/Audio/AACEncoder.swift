import AVFoundation
import Foundation

/// Encodes a finished WAV into AAC (mono, ~64 kbps) in an `.m4a`.
///
/// It writes the target directly: an `.m4a` has no `moov` box until closed, so one a crash cut off has no duration,
/// and `RecordingLibrary` then recovers the WAV instead.
enum AACEncoder {
    private static let bitRate = 64_000
    private static let framesPerRead: AVAudioFrameCount = 32_768

    static func encode(_ wav: URL, into target: URL) throws {
        do {
            try autoreleasepool { try write(wav, to: target) }
        } catch {
            try? FileManager.default.removeItem(at: target)
            throw error
        }
    }

    /// Both files are released before this returns, which closes them: the `.m4a` gets its `moov` box then.
    private static func write(_ wav: URL, to destination: URL) throws {
        let source = try AVAudioFile(forReading: wav, commonFormat: .pcmFormatFloat32, interleaved: false)
        let settings: [String: Any] = [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
            AVSampleRateKey: source.fileFormat.sampleRate,
            AVNumberOfChannelsKey: 1,
            AVEncoderBitRateKey: bitRate,
        ]
        let output = try AVAudioFile(
            forWriting: destination, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
        guard let buffer = AVAudioPCMBuffer(pcmFormat: source.processingFormat, frameCapacity: framesPerRead) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: wav.path])
        }
        while source.framePosition < source.length {
            try source.read(into: buffer)
            guard buffer.frameLength > 0 else { break }
            try output.write(from: buffer)
        }
        if #available(iOS 18, *) {
            output.close()
        }
    }
}
