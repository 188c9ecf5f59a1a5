import Foundation
import MyDayModels

/// Tells whether a file is audio in a container My Day accepts, using ffprobe.
struct AudioProbe: Sendable {
    struct Finding: Sendable, Equatable {
        let container: String
        let durationSeconds: Double?
    }

    enum Verdict: Sendable, Equatable {
        case audio(Finding)
        /// Not audio, damaged or truncated; the reason is fit for the client.
        case rejected(String)
    }

    var timeout: Duration = .seconds(30)

    /// The names ffprobe gives each container (its `format_name` lists aliases separated by commas).
    static func formatNames(of container: AudioContainer) -> Set<String> {
        switch container {
        case .mp4: ["mov", "mp4", "m4a"]
        case .wav: ["wav"]
        case .webm: ["matroska", "webm"]
        case .ogg: ["ogg"]
        case .mpeg: ["mp3"]
        }
    }

    /// Whether `file` is readable audio in `expected`, the container the client declared.
    func probe(_ file: URL, expected: AudioContainer) async throws -> Verdict {
        let result = try await ProcessRunner.run(
            "ffprobe",
            ["-v", "error", "-show_entries", "format=format_name,duration:stream=codec_type", "-of", "json", file.path],
            timeout: timeout)
        guard result.status == 0 else {
            return .rejected("The upload is not readable audio (it may be damaged or cut off).")
        }
        let report = try JSONDecoder().decode(Report.self, from: result.standardOutput)
        let formats = Set((report.format?.formatName ?? "").split(separator: ",").map(String.init))
        guard let container = formats.intersection(Self.formatNames(of: expected)).sorted().first else {
            return .rejected("The upload is not \(expected.rawValue) audio, as the entry declared.")
        }
        guard report.streams?.contains(where: { $0.codecType == "audio" }) == true else {
            return .rejected("The upload holds no audio track.")
        }
        return .audio(Finding(container: container, durationSeconds: report.format?.duration.flatMap(Double.init)))
    }

    private struct Report: Decodable {
        struct Format: Decodable {
            let formatName: String?
            let duration: String?
            enum CodingKeys: String, CodingKey {
                case formatName = "format_name"
                case duration
            }
        }
        struct Stream: Decodable {
            let codecType: String?
            enum CodingKeys: String, CodingKey { case codecType = "codec_type" }
        }
        let format: Format?
        let streams: [Stream]?
    }
}
