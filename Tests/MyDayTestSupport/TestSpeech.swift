import Foundation

/// Spoken test audio made with espeak-ng and ffmpeg, as an iPhone-like AAC file.
public enum TestSpeech {
    public static let diarySentence = "today i walked to the park with my sister and we talked about the garden"

    /// `text` spoken by espeak-ng, converted to AAC in MP4; `silenceAfter` seconds of silence appended.
    public static func m4a(_ text: String, voice: String = "en-us", volume: Double = 1, silenceAfter: Double = 0) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("myday-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("speech.wav")
        let m4a = folder.appendingPathComponent("speech.m4a")
        try run("/usr/bin/espeak-ng", ["-v", voice, "-s", "150", "-w", wav.path, text])
        try run(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-y", "-i", wav.path, "-af", "volume=\(volume),apad=pad_dur=\(silenceAfter)",
                "-ar", "44100", "-ac", "1",
                "-c:a", "aac", "-b:a", "64k", m4a.path,
            ])
        return try Data(contentsOf: m4a)
    }

    /// `seconds` of digital silence as AAC in MP4.
    public static func silence(seconds: Double) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("myday-silence-\(UUID().uuidString).m4a")
        defer { try? FileManager.default.removeItem(at: file) }
        try run(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono", "-t", String(seconds),
                "-c:a", "aac", file.path,
            ])
        return try Data(contentsOf: file)
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    }
}
