/// The audio containers My Day accepts, with their MIME type and file extension.
public enum AudioContainer: String, Sendable, Codable, CaseIterable {
    case mp4 = "audio/mp4"
    case wav = "audio/wav"
    case webm = "audio/webm"
    case ogg = "audio/ogg"
    case mpeg = "audio/mpeg"
    case flac = "audio/flac"
    /// AAC in ADTS frames (a bare `.aac` file); AAC in MP4 is `mp4`.
    case aac = "audio/aac"

    /// The extension of a file holding this container; iPhone recordings are `.m4a`.
    public var fileExtension: String {
        switch self {
        case .mp4: "m4a"
        case .wav: "wav"
        case .webm: "webm"
        case .ogg: "ogg"
        case .mpeg: "mp3"
        case .flac: "flac"
        case .aac: "aac"
        }
    }

    /// The container a file's extension names (`m4a`, `wav`…), in any case.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "m4a", "mp4": self = .mp4
        case "wav", "wave": self = .wav
        case "webm": self = .webm
        case "ogg", "oga", "opus": self = .ogg
        case "mp3": self = .mpeg
        case "flac": self = .flac
        case "aac": self = .aac
        default: return nil
        }
    }

    /// The container a `Content-Type` header names, ignoring parameters such as `codecs=opus`.
    public init?(contentType: String) {
        let essence = contentType.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
        switch essence {
        case "audio/mp4", "audio/m4a", "audio/x-m4a", "video/mp4": self = .mp4
        case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave": self = .wav
        case "audio/webm", "video/webm": self = .webm
        case "audio/ogg", "application/ogg": self = .ogg
        case "audio/mpeg", "audio/mp3": self = .mpeg
        case "audio/flac", "audio/x-flac": self = .flac
        case "audio/aac", "audio/x-aac", "audio/aacp": self = .aac
        default: return nil
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while result.first == " " { result = result.dropFirst() }
        while result.last == " " { result = result.dropLast() }
        return result
    }
}
