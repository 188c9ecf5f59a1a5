/// Whether an entry was spoken (audio) or typed (text).
public enum EntryKind: String, Sendable, Codable, CaseIterable {
    case audio
    case text
}

/// Where an entry is on its way from a recording to a readable transcript.
public enum EntryStatus: String, Sendable, Codable, CaseIterable {
    /// Created; the server does not have its audio yet.
    case pendingUpload = "pending_upload"
    /// The audio is stored durably and waits for transcription.
    case uploaded
    case transcribing
    case transcribed
    /// Transcription gave up; `failure_reason` says why. The audio is kept.
    case failed
}
