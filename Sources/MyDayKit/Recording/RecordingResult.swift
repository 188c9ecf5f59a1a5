import Foundation

/// A finished recording: which file holds the audio, when it began and how long it is.
public struct RecordingResult: Equatable, Sendable {
    public let id: UUID
    public let startedAt: Date
    /// The time zone the recording was made in, so the diary shows local time even after travelling.
    public let timeZoneIdentifier: String
    /// Recorded time only: pauses and interruptions are excluded.
    public let duration: TimeInterval
    public let file: URL

    public init(id: UUID, startedAt: Date, timeZoneIdentifier: String, duration: TimeInterval, file: URL) {
        self.id = id
        self.startedAt = startedAt
        self.timeZoneIdentifier = timeZoneIdentifier
        self.duration = duration
        self.file = file
    }
}
