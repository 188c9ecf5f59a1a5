import AVFoundation
import MyDayKit

extension GrowingWAVFile {
    /// Appends the samples of an interleaved 16-bit mono buffer.
    func append(_ buffer: AVAudioPCMBuffer) throws {
        guard let samples = buffer.int16ChannelData?[0], buffer.frameLength > 0 else { return }
        try append(pcm: Data(bytes: samples, count: Int(buffer.frameLength) * MemoryLayout<Int16>.size))
    }
}
