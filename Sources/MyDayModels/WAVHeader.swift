import Foundation

/// The 44-byte header of a 16-bit mono PCM WAV file (RIFF/WAVE, `fmt ` and `data` chunks): what the speech service is
/// sent, what the iPhone records into, and what tests make tones with.
public enum WAVHeader {
    public static let size = 44

    /// The header of a file of `pcmByteCount` bytes of samples; 0 while nothing is written yet.
    public static func bytes(pcmByteCount: Int, sampleRate: Int) -> [UInt8] {
        var header: [UInt8] = []
        func append(_ text: String) { header += Array(text.utf8) }
        func append32(_ value: Int) { header += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func append16(_ value: Int) { header += withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        append("RIFF")
        append32(36 + pcmByteCount)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(sampleRate)
        append32(sampleRate * 2)  // bytes per second
        append16(2)  // bytes per frame
        append16(16)  // bits per sample
        append("data")
        append32(pcmByteCount)
        return header
    }
}
