import AVFoundation
import Foundation
import MyDayKit

/// One recording of `EngineAudioCapture`: its engine, the converter to 44.1 kHz mono 16-bit and the growing WAV.
///
/// Sendable by hand: its variables change only under the capture's lock, which the audio tap thread takes too.
final class CaptureTake: @unchecked Sendable {
    static let sampleRate = 44_100.0

    let engine = AVAudioEngine()
    let target: URL
    let writer: GrowingWAVFile
    let recordingFormat: AVAudioFormat
    var converter: AVAudioConverter?
    var inputFormat: AVAudioFormat?
    var isRunning = false
    var hasFailed = false
    var observers: [any NSObjectProtocol] = []
    private var buffersSeen = 0

    init(target: URL) throws {
        guard
            let format = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: Self.sampleRate, channels: 1, interleaved: true)
        else { throw AudioCaptureError.unsupportedInput }
        self.target = target
        recordingFormat = format
        writer = try GrowingWAVFile(creating: RecordingLibrary.pcmCopy(of: target), sampleRate: Int(Self.sampleRate))
    }

    /// Converts one input buffer and appends it to the WAV; every fourth buffer also answers its RMS level.
    /// A failure is answered, not kept: the capture marks the take failed when it reports it.
    func record(_ buffer: AVAudioPCMBuffer) -> (level: Float?, failure: String?) {
        guard isRunning, !hasFailed, let converter else { return (nil, nil) }
        buffersSeen += 1
        let level = buffersSeen % 4 == 0 ? Self.rms(of: buffer) : nil
        do {
            try writer.append(try convert(buffer, with: converter))
            return (level, nil)
        } catch {
            let reason = error.localizedDescription
            return (nil, "The recording stopped: \(reason). What was recorded appears when My Day opens next.")
        }
    }

    private func convert(_ buffer: AVAudioPCMBuffer, with converter: AVAudioConverter) throws -> AVAudioPCMBuffer {
        let ratio = recordingFormat.sampleRate / buffer.format.sampleRate
        let capacity = AVAudioFrameCount((Double(buffer.frameLength) * ratio).rounded(.up)) + 32
        guard let output = AVAudioPCMBuffer(pcmFormat: recordingFormat, frameCapacity: capacity) else {
            throw AudioCaptureError.unsupportedInput
        }
        let feed = ConverterFeed(buffer)
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, inputStatus in
            feed.next(inputStatus)
        }
        if status == .error {
            if let error { throw error }
            throw AudioCaptureError.unsupportedInput
        }
        return output
    }

    private static func rms(of buffer: AVAudioPCMBuffer) -> Float? {
        guard let samples = buffer.floatChannelData?[0] else { return nil }
        return WaveformLevels.rms(UnsafeBufferPointer(start: samples, count: Int(buffer.frameLength)))
    }
}

/// Hands the converter one buffer, then "no data now", which keeps the resampler's state for the next buffer.
///
/// Sendable by hand: the converter calls it synchronously inside `convert(to:error:withInputFrom:)`, on one thread.
private final class ConverterFeed: @unchecked Sendable {
    private var buffer: AVAudioPCMBuffer?

    init(_ buffer: AVAudioPCMBuffer) {
        self.buffer = buffer
    }

    func next(_ status: UnsafeMutablePointer<AVAudioConverterInputStatus>) -> AVAudioBuffer? {
        guard let buffer else {
            status.pointee = .noDataNow
            return nil
        }
        self.buffer = nil
        status.pointee = .haveData
        return buffer
    }
}
