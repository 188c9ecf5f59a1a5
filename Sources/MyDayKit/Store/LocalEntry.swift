import Foundation
import GRDB
import MyDayModels

/// Where an entry is, as this device sees it: on its way up (local states), then the server's status.
public enum LocalEntryState: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    /// Saved on this device, waiting in the upload queue.
    case queued
    /// Being sent to the server right now.
    case uploading
    /// The server refused it for a reason retrying cannot fix; `failureReason` says why.
    case uploadFailed = "upload_failed"
    case pendingUpload = "pending_upload"
    case uploaded
    case transcribing
    case transcribed
    /// The server could not transcribe it; the audio is safe.
    case failed

    /// The state a server status maps to.
    public init(_ status: EntryStatus) {
        switch status {
        case .pendingUpload: self = .pendingUpload
        case .uploaded: self = .uploaded
        case .transcribing: self = .transcribing
        case .transcribed: self = .transcribed
        case .failed: self = .failed
        }
    }

    /// Whether the server may still lack this entry's audio, so a server row must not replace it.
    public var isOnItsWayUp: Bool { self == .queued || self == .uploading || self == .uploadFailed }
}

/// An entry in the local store: everything the server said, plus what only this device knows.
public struct LocalEntry: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "entry"

    public var id: UUID
    public var createdAt: Date
    public var timeZone: String
    public var duration: TimeInterval
    public var kind: EntryKind
    public var state: LocalEntryState
    public var failureReason: String?
    public var filename: String
    public var contentType: String?
    public var sizeBytes: Int?
    public var language: String?
    public var title: String?
    public var tags: [String]
    public var mood: Int?
    public var transcriptRaw: String?
    /// The clean transcript, or the text of a typed entry.
    public var transcriptClean: String?
    public var noSpeech: Bool
    /// The words are the person's: they edited the transcript (the server's `words_edited`).
    public var wordsEdited: Bool
    /// Why the transcript may be wrong, shown in the Library with Transcribe again; nil when it looks sound.
    public var reviewReason: String?
    /// How much of a long recording the server's engine has heard, while it is transcribed.
    public var transcriptionPercent: Int?
    /// The server's `updated_at`; nil until the server has the entry.
    public var serverUpdatedAt: Date?
    /// The audio on this device, relative to the recording library; nil when only the server has it.
    public var audioPath: String?
    /// When the server confirmed it has this device's audio: from then on the file may be let go (`AudioKeeping`).
    public var audioConfirmedAt: Date?
    /// Edits made here that the server has not accepted yet.
    public var pendingEdit: EntryEdit?
    /// When `pendingEdit` was last changed; compared with `serverUpdatedAt` by the merge rule (ADR 0013).
    public var editedAt: Date?
    /// The values the edited fields had before the first pending edit: what the server had then.
    public var editBase: EntryEdit?
    /// Deleted here; hidden, and deleted on the server at the next sync.
    public var pendingDelete: Bool

    public init(
        id: UUID, createdAt: Date, timeZone: String, duration: TimeInterval, kind: EntryKind, state: LocalEntryState,
        filename: String, contentType: String? = nil, sizeBytes: Int? = nil, language: String? = nil,
        transcriptClean: String? = nil, audioPath: String? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.timeZone = timeZone
        self.duration = duration
        self.kind = kind
        self.state = state
        self.filename = filename
        self.contentType = contentType
        self.sizeBytes = sizeBytes
        self.language = language
        self.tags = []
        self.transcriptClean = transcriptClean
        self.noSpeech = false
        self.wordsEdited = false
        self.audioPath = audioPath
        self.pendingDelete = false
    }

    /// The entry as the server described it, keeping this device's audio path.
    init(_ server: ServerEntry, audioPath: String?) {
        self.init(
            id: server.id, createdAt: server.createdAt, timeZone: server.timeZone, duration: server.duration,
            kind: server.kind, state: LocalEntryState(server.status), filename: server.filename,
            contentType: server.contentType, sizeBytes: server.sizeBytes, language: server.language,
            transcriptClean: server.transcriptClean, audioPath: audioPath)
        failureReason = server.failureReason
        title = server.title
        tags = server.tags
        mood = server.mood
        transcriptRaw = server.transcriptRaw
        noSpeech = server.noSpeech
        wordsEdited = server.wordsEdited
        reviewReason = server.reviewReason
        transcriptionPercent = server.transcriptionPercent
        serverUpdatedAt = server.updatedAt
    }

    /// This entry with `edit`'s fields applied.
    func applying(_ edit: EntryEdit) -> LocalEntry {
        var entry = self
        edit.apply(
            title: &entry.title, text: &entry.transcriptClean, tags: &entry.tags, mood: &entry.mood,
            createdAt: &entry.createdAt, timeZone: &entry.timeZone)
        return entry
    }

    /// The editable fields as they are, with removal spelled as an edit spells it ("" title, 0 mood).
    var editableValues: EntryEdit {
        EntryEdit(
            title: title ?? "", text: transcriptClean ?? "", tags: tags, mood: mood ?? 0,
            moment: EntryMoment(createdAt: createdAt, timeZone: timeZone))
    }

    /// The request that creates this entry on the server.
    var newEntryRequest: NewEntry {
        NewEntry(
            id: id, createdAt: createdAt, timeZone: timeZone, duration: duration, kind: kind,
            text: kind == .text ? (transcriptClean ?? "") : nil, sizeBytes: sizeBytes,
            container: contentType.flatMap(AudioContainer.init(contentType:)), language: language)
    }
}

extension EntryKind: DatabaseValueConvertible {}
