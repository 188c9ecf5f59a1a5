/// The small label beside an entry that is not readable yet.
public enum StatusPill: Equatable, Sendable {
    case uploading
    case transcribing
    case failed

    public var text: String {
        switch self {
        case .uploading: "Uploading…"
        case .transcribing: "Transcribing…"
        case .failed: "Failed — tap to retry"
        }
    }

    /// The pill an entry in `state` shows; none once it is transcribed.
    public init?(_ state: LocalEntryState) {
        switch state {
        case .queued, .uploading: self = .uploading
        case .pendingUpload, .uploaded, .transcribing: self = .transcribing
        case .uploadFailed, .failed: self = .failed
        case .transcribed: return nil
        }
    }
}

/// `m:ss`, or `h:mm:ss` from an hour on.
public func formattedDuration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
}
