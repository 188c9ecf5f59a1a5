import ChildProcesses
import Foundation
import Synchronization

/// Spoken test audio made with espeak-ng and ffmpeg, as an iPhone-like AAC file.
package enum TestSpeech {
    package static let diarySentence = "today i walked to the park with my sister and we talked about the garden"

    private static let made = Mutex<[String: Data]>([:])

    /// `text` spoken by espeak-ng, converted to AAC in MP4; `silenceAfter` seconds of silence appended. Made once a
    /// test run for each set of arguments.
    package static func m4a(_ text: String, voice: String = "en-us", volume: Double = 1, silenceAfter: Double = 0)
        async throws -> Data
    {
        let key = "\(voice) \(volume) \(silenceAfter) \(text)"
        if let data = made.withLock({ $0[key] }) { return data }
        let data = try await speak(text, voice: voice, volume: volume, silenceAfter: silenceAfter)
        made.withLock { $0[key] = data }
        return data
    }

    private static func speak(_ text: String, voice: String, volume: Double, silenceAfter: Double) async throws -> Data {
        let wav = TestFolder.path("myday-speech", ext: "wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        try await ChildProcess.succeed("espeak-ng", ["-v", voice, "-s", "150", "-w", wav.path, text])
        return try await TestMedia.ffmpegOutput(
            [
                "-i", wav.path, "-af", "volume=\(volume),apad=pad_dur=\(silenceAfter)", "-ar", "44100", "-ac", "1",
                "-c:a", "aac", "-b:a", "64k",
            ], ext: "m4a")
    }

    /// `seconds` of digital silence as AAC in MP4.
    package static func silence(seconds: Double) async throws -> Data {
        try await TestMedia.ffmpegOutput(
            ["-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono", "-t", String(seconds), "-c:a", "aac"], ext: "m4a")
    }
}
