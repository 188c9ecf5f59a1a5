/// The small label beside an entry that is not readable yet, or whose words may be wrong.
public enum StatusPill: Equatable, Sendable {
    /// On this device, not sent yet (offline, or backing off): the same words on every screen.
    case waiting
    case uploading
    /// With how much of a long recording the server has heard, once it tells.
    case transcribing(percent: Int?)
    case failed
    /// Transcribed, but the words look broken: listen again, or transcribe again.
    case needsReview

    public var text: String {
        switch self {
        case .waiting: "Waiting to upload"
        case .uploading: "Uploading…"
        case .transcribing(let percent?): "Transcribing… \(percent)%"
        case .transcribing: "Transcribing…"
        case .failed: "Failed — tap to retry"
        case .needsReview: "Check the words"
        }
    }

    /// The pill an entry shows: by its state, or "Check the words" when its transcript needs a look.
    public init?(_ entry: LocalEntry) {
        if entry.state == .transcribed, entry.reviewReason != nil {
            self = .needsReview
        } else if entry.state == .transcribing {
            self = .transcribing(percent: entry.transcriptionPercent)
        } else {
            self.init(entry.state)
        }
    }

    /// The pill an entry in `state` shows; none once it is transcribed.
    public init?(_ state: LocalEntryState) {
        switch state {
        case .queued: self = .waiting
        case .uploading: self = .uploading
        case .pendingUpload, .uploaded, .transcribing: self = .transcribing(percent: nil)
        case .uploadFailed, .failed: self = .failed
        case .transcribed: return nil
        }
    }
}

/// `m:ss`, or `h:mm:ss` from an hour on; whole seconds rounded down, as players count, so a list, an entry and its
/// player always show the same length.
public func formattedDuration(_ seconds: Double) -> String {
    let whole = seconds.isFinite ? Int(max(0, seconds).rounded(.down)) : 0
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
}
