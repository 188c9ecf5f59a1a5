import Foundation
import MyDayModels
import Observation

/// The Entry detail screen: the clean transcript (the raw one on demand), playback, edits, retry and delete.
@MainActor
@Observable
public final class EntryDetailViewModel {
    /// What the transcript area shows.
    public enum Transcript: Equatable, Sendable {
        /// Not there yet; the text says what is happening.
        case waiting(String)
        case noSpeech
        case failed(String)
        case text(String)
    }

    public private(set) var entry: LocalEntry
    /// Shows the recognizer's raw words instead of the cleaned text.
    public var showsOriginal = false
    public private(set) var errorMessage: String?
    /// Says that an edit was kept: "Saved.", or where it waits while the server is away.
    public private(set) var savedMessage: String?
    /// Set once the entry is deleted; the screen closes.
    public private(set) var isDeleted = false
    /// Set while sending again, transcribing again or deleting; another of these is not begun meanwhile. An edit is
    /// kept whenever it is saved.
    public private(set) var isWorking = false

    private let core: ClientCore

    public init(entry: LocalEntry, core: ClientCore) {
        self.entry = entry
        self.core = core
    }

    /// Follows the entry while the screen is open (an upload finishing, a transcript arriving) until the task is
    /// cancelled; the screen calls it from `.task`. An entry deleted elsewhere closes the screen.
    public func observe() async {
        do {
            for try await latest in core.store.observeEntry(entry.id) {
                guard let latest, !latest.pendingDelete else {
                    isDeleted = true
                    return
                }
                entry = latest
            }
        } catch {
            errorMessage = "The diary on this device could not be read: \(error)"
        }
    }

    public var transcript: Transcript {
        switch entry.state {
        case .queued: return .waiting(StatusPill.waiting.text)
        case .uploading: return .waiting(StatusPill.uploading.text)
        case .pendingUpload, .uploaded, .transcribing:
            return .waiting(StatusPill.transcribing(percent: entry.transcriptionPercent).text)
        case .uploadFailed: return .failed(entry.failureReason ?? "The server refused this recording.")
        case .failed: return .failed(entry.failureReason ?? "Transcription failed. The audio is safe.")
        case .transcribed:
            if entry.noSpeech { return .noSpeech }
            let text = showsOriginal && entry.kind == .audio ? entry.transcriptRaw : entry.transcriptClean
            return .text(text ?? "")
        }
    }

    /// The transcript's words with when each was said, to follow while the audio plays; nil before `loadWords`, for a
    /// typed entry, offline, and while the text shown is not the server's (an edit made here waits to be sent).
    public private(set) var follower: TranscriptFollower?

    /// What the server suggests from the entry's own words, less what the entry already has; nothing is applied until
    /// one of the `accept` calls.
    public var suggestions: Suggestions? {
        guard let offered else { return nil }
        let fresh = Suggestions(
            title: offered.title == entry.title ? nil : offered.title,
            tags: offered.tags.filter { !entry.tags.contains($0) }, mood: offered.mood == entry.mood ? nil : offered.mood)
        return fresh.title == nil && fresh.tags.isEmpty && fresh.mood == nil ? nil : fresh
    }
    private var offered: Suggestions?

    /// Asks for suggestions of a transcribed entry (offline, none are shown).
    public func loadSuggestions() async {
        guard entry.state == .transcribed, !entry.noSpeech else { return }
        offered = try? await core.client.suggestions(for: entry.id)
    }

    public func acceptSuggestedTitle() async {
        guard let title = suggestions?.title else { return }
        await save(EntryEdit(title: title))
    }

    public func acceptSuggestedTags() async {
        guard let tags = suggestions?.tags, !tags.isEmpty else { return }
        await save(EntryEdit(tags: entry.tags + tags))
    }

    public func acceptSuggestedMood() async {
        guard let mood = suggestions?.mood else { return }
        await save(EntryEdit(mood: mood))
    }

    /// Why the words may be wrong, when the server marked them so: shown with "Transcribe again".
    public var reviewReason: String? { entry.state == .transcribed ? entry.reviewReason : nil }

    /// Fetches the words and their times of a transcribed recording; call again when the entry changed.
    public func loadWords() async {
        guard entry.kind == .audio, entry.state == .transcribed, !entry.noSpeech, let text = entry.transcriptClean else {
            follower = nil
            return
        }
        let shown = text.split(whereSeparator: \.isWhitespace).map(String.init)
        do {
            let words = try await core.client.words(of: entry.id)
            follower = words.map(\.text) == shown ? TranscriptFollower(words: words) : nil
        } catch {
            follower = nil
        }
    }

    /// Whether "show original" makes sense: a transcribed recording.
    public var hasOriginal: Bool { entry.kind == .audio && entry.transcriptRaw != nil }
    public var canRetry: Bool { entry.state == .uploadFailed || entry.state == .failed }
    /// A fresh transcript can be asked for once the server has the audio.
    public var canRetranscribe: Bool { entry.kind == .audio && [.transcribed, .failed].contains(entry.state) }
    /// Transcribe again would replace words the person edited (here, or elsewhere): the app asks first.
    public var retranscribingReplacesEdits: Bool { entry.wordsEdited || entry.pendingEdit?.text != nil }
    public var duration: String { formattedDuration(entry.duration) }

    /// The header's first line: the entry's title, else its day, in the entry's own time zone.
    public func headerTitle(locale: Locale = .current) -> String {
        if let title = entry.title, !title.isEmpty { return title }
        return day(locale)
    }

    /// The line under it: the time (after the day when a title took the first line), and a recording's length.
    public func headerMeta(locale: Locale = .current) -> String {
        let zone = TimeZone(identifier: entry.timeZone) ?? .current
        let time = entry.createdAt.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, timeZone: zone))
        let when = entry.title?.isEmpty == false ? "\(day(locale)), \(time)" : time
        return entry.kind == .audio ? "\(when) · \(duration)" : when
    }

    private func day(_ locale: Locale) -> String {
        let zone = TimeZone(identifier: entry.timeZone) ?? .current
        return entry.createdAt.formatted(Date.FormatStyle(date: .complete, time: .omitted, locale: locale, timeZone: zone))
    }

    /// What to play: the file on this device when it is still here, else a signed link from the server.
    public func playbackURL() async -> URL? {
        if let path = entry.audioPath, FileManager.default.fileExists(atPath: core.library.url(of: path).path) {
            return core.library.url(of: path)
        }
        do {
            return try await core.client.audioLink(for: entry.id).url
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
            return nil
        }
    }

    /// The longest title the server keeps, in characters.
    public nonisolated static let maximumTitleLength = 200

    /// Why `title` cannot be saved, to show at the field (the edit is not cut short silently); nil when it can.
    public nonisolated static func titleProblem(_ title: String) -> String? {
        let length = title.trimmingCharacters(in: .whitespacesAndNewlines).count
        guard length > maximumTitleLength else { return nil }
        return "A title can have at most \(maximumTitleLength) characters; this one has \(length)."
    }

    /// Edits shown at once and sent at the next sync (now, if the server is reachable); `savedMessage` says which.
    /// A title that is too long is refused, with `errorMessage` saying why, and nothing changes.
    public func save(_ edit: EntryEdit) async {
        guard !edit.isEmpty else { return }
        savedMessage = nil
        if let title = edit.title, let problem = Self.titleProblem(title) {
            errorMessage = problem
            return
        }
        do {
            try core.store.editEntry(entry.id, edit)
            errorMessage = nil
            reload()
            _ = try await core.syncEngine.sync()
            savedMessage = "Saved."
        } catch {
            savedMessage = "Saved on this device; it reaches the server at the next sync."
        }
        reload()
    }

    public func retry() async {
        guard begin() else { return }
        defer { isWorking = false }
        do { try await core.retry(entry.id) } catch { errorMessage = LibraryViewModel.message(for: error) }
        reload()
    }

    /// Asks the server for a fresh transcript of the same audio.
    public func retranscribe() async {
        guard begin() else { return }
        defer { isWorking = false }
        do { try await core.retranscribe(entry.id) } catch { errorMessage = LibraryViewModel.message(for: error) }
        reload()
    }

    /// Deletes here at once and on the server when it can be reached.
    public func delete() async {
        guard begin() else { return }
        defer { isWorking = false }
        do {
            if let path = try core.store.deleteEntry(entry.id) { core.library.removeAudio(path) }
            isDeleted = true
            _ = try await core.syncEngine.sync()
        } catch {
            errorMessage = isDeleted ? nil : LibraryViewModel.message(for: error)
        }
    }

    /// Marks an action begun; false while another runs.
    private func begin() -> Bool {
        guard !isWorking else { return false }
        isWorking = true
        return true
    }

    private func reload() {
        if let fresh = try? core.store.entry(entry.id) { entry = fresh }
    }
}
