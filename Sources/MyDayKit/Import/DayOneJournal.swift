import Foundation
import ZIPFoundation

/// A Day One JSON export: a zip with one `<journal>.json` per journal (`entries[]` with `uuid`, `creationDate`,
/// `timeZone`, `text` in markdown, `tags`, `starred`, `audios[]` by `md5`) and the recordings in `audios/`, named by
/// their MD5. Read without unpacking: each recording is copied out only when it is imported.
public struct DayOneJournal {
    /// One entry as My Day keeps it.
    public struct Entry: Sendable, Equatable {
        public let uuid: String
        public let createdAt: Date
        public let timeZone: TimeZone
        /// The words, as readable markdown: Day One's escapes undone and its links to photos and recordings left out.
        public let text: String
        /// Its tags, and `starred` when it was starred.
        public let tags: [String]
        /// Where its recordings are in the archive.
        public let audioPaths: [String]
    }

    /// Day One's JSON, as much of it as an import needs.
    private struct Export: Decodable {
        let entries: [RawEntry]
    }

    private struct RawEntry: Decodable {
        let uuid: String
        let creationDate: String
        let timeZone: String?
        let text: String?
        let tags: [String]?
        let starred: Bool?
        let audios: [RawAudio]?
        let photos: [Unread]?
        let videos: [Unread]?
        let pdfAttachments: [Unread]?

        /// What My Day does not keep, counted for the person: "2 photos and a video".
        var notKept: String? {
            let parts = [("photo", photos?.count ?? 0), ("video", videos?.count ?? 0), ("PDF", pdfAttachments?.count ?? 0)]
                .filter { $0.1 > 0 }
                .map { name, count in count == 1 ? "a \(name)" : "\(count) \(name)s" }
            guard let last = parts.last else { return nil }
            return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
        }
    }

    /// A part of an entry only counted: its fields are not read.
    private struct Unread: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    private struct RawAudio: Decodable {
        let md5: String
        let format: String?
    }

    private let archive: Archive
    /// The entries of every journal in the export, oldest first.
    public let entries: [Entry]
    /// What could not be read, for people (an entry without a date, a recording missing from the zip).
    public let problems: [String]

    /// Reads the export at `zip`; throws when it is not a zip or holds no journal.
    public init(zip: URL) throws {
        do {
            archive = try Archive(url: zip, accessMode: .read)
        } catch {
            throw DayOneJournalError("\(zip.lastPathComponent) is not a zip file Day One exported.")
        }
        let journals = archive.filter { $0.type == .file && !$0.path.contains("/") && $0.path.lowercased().hasSuffix(".json") }
        guard !journals.isEmpty else {
            throw DayOneJournalError(
                "\(zip.lastPathComponent) holds no journal (Day One's JSON export has one .json file per journal).")
        }
        let mediaPaths = Set(archive.filter { $0.type == .file }.map(\.path))
        var entries: [Entry] = []
        var problems: [String] = []
        for journal in journals {
            var data = Data()
            _ = try archive.extract(journal, skipCRC32: false) { data.append($0) }
            guard let export = try? JSONDecoder().decode(Export.self, from: data) else {
                problems.append("\(journal.path) is not a Day One journal.")
                continue
            }
            for raw in export.entries {
                guard let createdAt = try? Date(raw.creationDate, strategy: .iso8601) else {
                    problems.append("Entry \(raw.uuid) of \(journal.path) has no date Day One wrote (\(raw.creationDate)).")
                    continue
                }
                if let notKept = raw.notKept {
                    problems.append(
                        "Entry \(raw.uuid) of \(journal.path) has \(notKept), which My Day does not keep (it keeps words and recordings)."
                    )
                }
                var audioPaths: [String] = []
                for audio in raw.audios ?? [] {
                    let named = mediaPaths.first { $0.hasPrefix("audios/\(audio.md5).") }
                    guard let path = named else {
                        problems.append("The recording \(audio.md5) of entry \(raw.uuid) is not in the zip.")
                        continue
                    }
                    audioPaths.append(path)
                }
                entries.append(
                    Entry(
                        uuid: raw.uuid, createdAt: createdAt,
                        timeZone: raw.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current,
                        text: Self.readable(raw.text ?? ""), tags: (raw.tags ?? []) + (raw.starred == true ? ["starred"] : []),
                        audioPaths: audioPaths))
            }
        }
        self.entries = entries.sorted { ($0.createdAt, $0.uuid) < ($1.createdAt, $1.uuid) }
        self.problems = problems
    }

    /// Copies the recording at `path` in the archive to `file`.
    public func extract(_ path: String, to file: URL) throws {
        guard let entry = archive[path] else { throw DayOneJournalError("\(path) is not in the zip.") }
        try? FileManager.default.removeItem(at: file)
        _ = try archive.extract(entry, to: file)
    }

    /// Day One's markdown made plain to read: the backslashes it puts before punctuation (`\.`, `\!`, `\-`, `\(`) go,
    /// and lines that only link one of its photos or recordings (`![](dayone-moment://…)`) are left out.
    static func readable(_ text: String) -> String {
        let lines = text.components(separatedBy: "\n").filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !(trimmed.hasPrefix("![](dayone-moment:") && trimmed.hasSuffix(")"))
        }
        var result = ""
        var escaped = false
        for character in lines.joined(separator: "\n") {
            if escaped {
                if !".!-()+=~#>".contains(character) { result.append("\\") }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why a Day One export could not be read, in one sentence.
public struct DayOneJournalError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
