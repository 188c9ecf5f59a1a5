import ChildProcesses
import Foundation
import MyDayModels

/// Tells whether a file is audio in a container My Day accepts, using ffprobe.
package struct AudioProbe: Sendable {
    package struct Finding: Sendable, Equatable {
        package let container: String
        package let durationSeconds: Double?
        /// Whether the file says how long it is: browsers' own WebM recordings do not, and players cannot seek them
        /// until they are remuxed (`SeekableRemux`).
        package var statesItsDuration = true
    }

    package enum Verdict: Sendable, Equatable {
        case audio(Finding)
        /// Not audio, damaged or truncated; the reason is fit for the client.
        case rejected(String)
    }

    package var timeout: Duration = .seconds(30)

    package init() {}

    /// The names ffprobe gives each container (its `format_name` lists aliases separated by commas).
    package static func formatNames(of container: AudioContainer) -> Set<String> {
        switch container {
        case .mp4: ["mov", "mp4", "m4a"]
        case .wav: ["wav"]
        case .webm: ["matroska", "webm"]
        case .ogg: ["ogg"]
        case .mpeg: ["mp3"]
        case .flac: ["flac"]
        case .aac: ["aac"]
        }
    }

    /// Whether `file` is readable audio in `expected`, the container the client declared, and how long it lasts.
    package func probe(_ file: URL, expected: AudioContainer) async throws -> Verdict {
        let result = try await ChildProcess.run(
            "ffprobe",
            ["-v", "error"] + FFmpegInput.arguments(file, container: expected)
                + ["-show_entries", "format=format_name,duration:stream=codec_type", "-of", "json"],
            timeout: timeout)
        guard result.status == 0 else {
            return .rejected("The upload is not readable \(expected.rawValue) audio (it may be damaged or cut off).")
        }
        let report = try JSONDecoder().decode(Report.self, from: result.standardOutput)
        let formats = Set((report.format?.formatName ?? "").split(separator: ",").map(String.init))
        guard let container = formats.intersection(Self.formatNames(of: expected)).sorted().first else {
            return .rejected("The upload is not \(expected.rawValue) audio, as the entry declared.")
        }
        guard report.streams?.contains(where: { $0.codecType == "audio" }) == true else {
            return .rejected("The upload holds no audio track.")
        }
        if let stated = report.format?.duration.flatMap(Double.init) {
            return .audio(Finding(container: container, durationSeconds: stated))
        }
        // Browsers' WebM and streamed files carry no duration: read the audio's packets to its end (no decoding).
        let measured = try await measuredDuration(of: file, container: expected)
        return .audio(Finding(container: container, durationSeconds: measured, statesItsDuration: false))
    }

    /// The end time of the last audio packet, found by copying the stream to nowhere; nil when ffmpeg cannot tell.
    func measuredDuration(of file: URL, container: AudioContainer) async throws -> Double? {
        let result = try await ChildProcess.run(
            "ffmpeg",
            ["-nostdin", "-v", "error"] + FFmpegInput.arguments(file, container: container)
                + ["-map", "0:a:0", "-c", "copy", "-f", "null", "-progress", "pipe:1", "-nostats", "-"],
            timeout: timeout)
        guard result.status == 0 else { return nil }
        let microseconds = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
            .last { $0.hasPrefix("out_time_us=") }
            .flatMap { Double($0.dropFirst("out_time_us=".count)) }
        return microseconds.map { $0 / 1_000_000 }
    }

    private struct Report: Decodable {
        package struct Format: Decodable {
            package let formatName: String?
            package let duration: String?
            package enum CodingKeys: String, CodingKey {
                case formatName = "format_name"
                case duration
            }
        }
        package struct Stream: Decodable {
            package let codecType: String?
            package enum CodingKeys: String, CodingKey { case codecType = "codec_type" }
        }
        package let format: Format?
        package let streams: [Stream]?
    }
}
