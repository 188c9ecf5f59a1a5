import ChildProcesses
import Foundation
import MyDayModels
import Synchronization

/// Audio for tests, made with the real ffmpeg and espeak-ng, or written sample by sample.
package enum TestMedia {
    /// Runs ffmpeg quietly (overwriting its output) and throws with its message when it fails.
    package static func ffmpeg(_ arguments: [String]) async throws {
        try await ChildProcess.succeed("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
    }

    /// What ffmpeg writes for `arguments` into a file of type `ext`, as bytes.
    package static func ffmpegOutput(_ arguments: [String], ext: String) async throws -> Data {
        let output = TestFolder.path("myday-media", ext: ext)
        defer { try? FileManager.default.removeItem(at: output) }
        try await ffmpeg(arguments + [output.path])
        return try Data(contentsOf: output)
    }

    /// `seconds` of a tone in Opus in WebM written as a browser's MediaRecorder writes it: streamed, so the file says
    /// neither its duration nor where to seek.
    package static func streamedWebM(seconds: Int) async throws -> Data {
        try await ChildProcess.succeed(
            "ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=16000", "-t",
                String(seconds),
                "-ac", "1", "-c:a", "libopus", "-b:a", "8k", "-f", "webm", "pipe:1",
            ]
        ).standardOutput
    }

    /// A sine tone as a PCM WAV (16-bit mono) of `seconds` at `rate`; with `sizesWritten: false` its header says
    /// 0 bytes, as a crash leaves it.
    package static func wav(seconds: Double, rate: Int = 16_000, sizesWritten: Bool = true) -> Data {
        let samples = Int(Double(rate) * seconds)
        var data = Data(WAVHeader.bytes(pcmByteCount: sizesWritten ? samples * 2 : 0, sampleRate: rate))
        for index in 0..<samples {
            withUnsafeBytes(of: Int16(sin(Double(index) / 10) * 8000).littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}

/// Audio files every test run makes once with the real ffmpeg, as a phone would upload them.
package enum TestAudio {
    private static let made = Mutex<[String: Data]>([:])

    /// 1.5 s of a 440 Hz tone as AAC in MP4, as an iPhone would upload it.
    package static func m4a() async throws -> Data {
        try await once("m4a", ["-f", "lavfi", "-i", "sine=frequency=440:duration=1.5", "-c:a", "aac", "-b:a", "64k"])
    }

    /// One second of a 300 Hz tone as 16 kHz mono WAV.
    package static func wav() async throws -> Data {
        try await once("wav", ["-f", "lavfi", "-i", "sine=frequency=300:duration=1", "-ar", "16000", "-ac", "1"])
    }

    /// The first half of `m4a`: its index (the `moov` box) is missing, as after a cut-off upload.
    package static func truncatedM4A() async throws -> Data {
        let whole = try await m4a()
        return whole.prefix(whole.count / 2)
    }

    /// Bytes that are no audio at all.
    package static let notAudio = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })

    private static func once(_ ext: String, _ arguments: [String]) async throws -> Data {
        if let data = made.withLock({ $0[ext] }) { return data }
        let data = try await TestMedia.ffmpegOutput(arguments, ext: ext)
        made.withLock { $0[ext] = data }
        return data
    }
}
