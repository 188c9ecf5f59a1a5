import ChildProcesses
import Foundation
import MyDayModels

/// How ffmpeg and ffprobe open an uploaded file: with the protocols its own URL needs and no others (no pipe,
/// concatenation or other protocols a crafted file could name) and with the demuxer of the container the client
/// declared, never a guessed one (so no playlist a file holds is followed).
package enum FFmpegInput {
    /// The input options and the file, for a recording in `container` (nil: a file named on the command line, whose
    /// container ffmpeg finds itself). `file` is a local file, or an object in a bucket behind an `http(s)` URL, read
    /// by byte ranges.
    package static func arguments(_ file: URL, container: AudioContainer?) -> [String] {
        var arguments = ["-protocol_whitelist", protocols(for: file)]
        if let container {
            // FLAC's and ADTS's demuxers read any bytes when forced on them; those are found by their signature, and
            // only taken when that is what they are.
            let raw = container == .flac || container == .aac
            arguments += [raw ? "-format_whitelist" : "-f", demuxer(for: container)]
        }
        return arguments + ["-i", file.isFileURL ? file.path : file.absoluteString]
    }

    /// The protocols ffmpeg may use to read `file`.
    static func protocols(for file: URL) -> String {
        switch file.scheme {
        case "https": "https,tls,tcp"
        case "http": "http,tcp"
        default: "file"
        }
    }

    /// ffmpeg's demuxer for each container.
    static func demuxer(for container: AudioContainer) -> String {
        switch container {
        case .mp4: "mov"
        case .wav: "wav"
        case .webm: "matroska"
        case .ogg: "ogg"
        case .mpeg: "mp3"
        case .flac: "flac"
        case .aac: "aac"
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
        case .flac: "flac"
        case .aac: "adts"
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
