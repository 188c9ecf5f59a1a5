import Foundation
import MyDayModels

/// An entry as the server has it.
public struct ServerEntry: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var createdAt: Date
    /// The recording's IANA time zone.
    public var timeZone: String
    public var duration: TimeInterval
    public var kind: EntryKind
    public var status: EntryStatus
    public var failureReason: String?
    public var filename: String
    public var contentType: String?
    public var sizeBytes: Int?
    public var language: String?
    public var title: String?
    public var tags: [String]
    public var mood: Int?
    public var transcriptRaw: String?
    public var transcriptClean: String?
    public var noSpeech: Bool
    /// The person edited the words (`words_edited`); Transcribe again would replace them.
    public var wordsEdited: Bool
    /// Why the transcript may be wrong (the server marks it `needs_review`); nil when it looks sound.
    public var reviewReason: String?
    /// How much of a long recording the server's engine has heard, while it is transcribed.
    public var transcriptionPercent: Int?
    /// When the server last changed the entry; the merge rule compares local edits with it (ADR 0013).
    public var updatedAt: Date

    public init(
        id: UUID, createdAt: Date, timeZone: String, duration: TimeInterval, kind: EntryKind, status: EntryStatus,
        failureReason: String? = nil, filename: String, contentType: String? = nil, sizeBytes: Int? = nil,
        language: String? = nil, title: String? = nil, tags: [String] = [], mood: Int? = nil, transcriptRaw: String? = nil,
        transcriptClean: String? = nil, noSpeech: Bool = false, wordsEdited: Bool = false, reviewReason: String? = nil,
        transcriptionPercent: Int? = nil, updatedAt: Date
    ) {
        self.wordsEdited = wordsEdited
        self.id = id
        self.createdAt = createdAt
        self.timeZone = timeZone
        self.duration = duration
        self.kind = kind
        self.status = status
        self.failureReason = failureReason
        self.filename = filename
        self.contentType = contentType
        self.sizeBytes = sizeBytes
        self.language = language
        self.title = title
        self.tags = tags
        self.mood = mood
        self.transcriptRaw = transcriptRaw
        self.transcriptClean = transcriptClean
        self.noSpeech = noSpeech
        self.reviewReason = reviewReason
        self.transcriptionPercent = transcriptionPercent
        self.updatedAt = updatedAt
    }
}

/// One page of `GET /v1/entries?since=`: what changed after a cursor.
public struct EntryChanges: Sendable, Equatable {
    public var entries: [ServerEntry]
    public var deletedIDs: [UUID]
    /// Pass back as `since`; keep the last one for the next sync.
    public var nextCursor: String
    public var hasMore: Bool

    public init(entries: [ServerEntry], deletedIDs: [UUID], nextCursor: String, hasMore: Bool) {
        self.entries = entries
        self.deletedIDs = deletedIDs
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}
