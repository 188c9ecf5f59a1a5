import Foundation
import MyDayModels

extension DiaryImport {
    /// What queueing one Day One entry did: its words and each of its recordings.
    public struct JournalOutcome: Sendable, Equatable {
        public var words: Outcome?
        public var recordings: [Outcome] = []
    }

    /// Queues a Day One entry: its words as a typed entry and each recording as an audio entry, all of its moment and
    /// with its tags. The words are known by the entry's Day One id, a recording by its bytes, so importing the journal
    /// again (or the recording as a file) makes nothing twice.
    public func queue(_ entry: DayOneJournal.Entry, from journal: DayOneJournal, language: String?) throws -> JournalOutcome {
        let tags = Array(
            entry.tags.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter {
                (1...50).contains($0.unicodeScalars.count)
            }
            .prefix(20))
        var outcome = JournalOutcome()
        if !entry.text.isEmpty {
            let sha256 = Self.sha256(of: "dayone-entry:\(entry.uuid)")
            if let known = try store.importedFile(sourceSHA256: sha256) {
                outcome.words = known.queued ? .alreadyQueued(known.entryID) : .alreadyInTheDiary(known.entryID)
            } else {
                let note = try store.noteWritten(entry.text, at: entry.createdAt, timeZone: entry.timeZone, sourceSHA256: sha256)
                if !tags.isEmpty { try store.editEntry(note.id, EntryEdit(tags: tags)) }
                outcome.words = .queued(note.id)
            }
        }
        for path in entry.audioPaths {
            let copy = FileManager.default.temporaryDirectory
                .appendingPathComponent("myday-dayone-\(UUID().uuidString.lowercased())")
                .appendingPathExtension((path as NSString).pathExtension)
            defer { try? FileManager.default.removeItem(at: copy) }
            try journal.extract(path, to: copy)
            let size = (try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? Int) ?? 0
            let found = Found(url: copy, recordedAt: RecordingTime(date: entry.createdAt, source: .container), sizeBytes: size)
            let recorded = try queue(found, sha256: try Self.sha256(of: copy), timeZone: entry.timeZone, language: language)
            if case .queued(let id) = recorded, !tags.isEmpty { try store.editEntry(id, EntryEdit(tags: tags)) }
            outcome.recordings.append(recorded)
        }
        return outcome
    }
}
