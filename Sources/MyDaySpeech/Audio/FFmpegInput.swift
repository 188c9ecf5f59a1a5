import ChildProcesses
import Foundation
import MyDayModels

/// How ffmpeg and ffprobe open an uploaded file: as a local file only (no network, pipe or concatenation protocols a
/// crafted file could name) and with the demuxer of the container the client declared, never a guessed one.
public enum FFmpegInput {
    /// The input options and the file, for a recording in `container` (nil: a file named on the command line, whose
    /// container ffmpeg finds itself).
    public static func arguments(_ file: URL, container: AudioContainer?) -> [String] {
        var arguments = ["-protocol_whitelist", "file"]
        if let container { arguments += ["-f", demuxer(for: container)] }
        return arguments + ["-i", file.path]
    }

    /// ffmpeg's demuxer for each container.
    static func demuxer(for container: AudioContainer) -> String {
        switch container {
        case .mp4: "mov"
        case .wav: "wav"
        case .webm: "matroska"
        case .ogg: "ogg"
        case .mpeg: "mp3"
        }
    }

    /// ffmpeg's muxer that writes each container.
    static func muxer(for container: AudioContainer) -> String {
        switch container {
        case .mp4: "mp4"
        case .wav: "wav"
        case .webm: "webm"
        case .ogg: "ogg"
        case .mpeg: "mp3"
        }
    }

    /// Runs ffmpeg with `arguments`, which write `output`; answers its result. Unless ffmpeg succeeds, `output` is
    /// removed (a failure, a time limit, a cancellation), so nothing half-written is left behind.
    static func run(_ arguments: [String], writing output: URL, timeout: Duration) async throws -> ChildProcess.Output {
        let result: ChildProcess.Output
        do {
            result = try await ChildProcess.run("ffmpeg", arguments, timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: output)
            throw error
        }
        if result.status != 0 { try? FileManager.default.removeItem(at: output) }
        return result
    }
}
