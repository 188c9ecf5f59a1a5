import Foundation
import MyDayModels

#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

/// A folder kept in step with the diary (an Obsidian vault, a synced drive): one markdown file per entry and its
/// recording beside it, named and written as an export writes them (`EntryFiles`). New and changed entries are
/// written, renamed ones moved, deleted ones removed; what the folder holds besides is never touched. What My Day
/// wrote is noted in `.myday-folder.json`, so a file the person made, or one of its files they edited while its entry
/// did not change, is left as it is. Running it twice in a row changes nothing.
public struct MarkdownFolder: Sendable {
    /// What one pass did.
    public struct Summary: Sendable, Equatable {
        public var written = 0
        public var recordingsAdded = 0
        public var removed = 0
        public var unchanged = 0
        /// Entries whose recording could not be fetched this time (it comes with a later pass), with why.
        public var recordingsMissing: [(id: UUID, reason: String)] = []

        public static func == (a: Summary, b: Summary) -> Bool {
            (a.written, a.recordingsAdded, a.removed, a.unchanged, a.recordingsMissing.map(\.id))
                == (b.written, b.recordingsAdded, b.removed, b.unchanged, b.recordingsMissing.map(\.id))
        }
    }

    /// What the folder holds of one entry, as last written.
    private struct Written: Codable {
        var markdown: String
        var audio: String?
        /// The SHA-256 of the markdown as written.
        var sha256: String
    }

    private struct Manifest: Codable {
        var entries: [String: Written] = [:]
    }

    public let folder: URL
    private var manifestURL: URL { folder.appendingPathComponent(".myday-folder.json") }

    public init(folder: URL) {
        self.folder = folder
    }

    /// Brings the folder in step with `entries` (those deleted here are left out). `recording` answers a readable file
    /// of an audio entry's recording: the one on this device, or a download.
    public func update(
        with entries: [LocalEntry], recording: (LocalEntry, _ into: URL) async throws -> Void
    ) async throws -> Summary {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var manifest = (try? JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL))) ?? Manifest()
        var summary = Summary()
        var seconds: Set<String> = []
        let live = entries.filter { !$0.pendingDelete }.sorted {
            ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString)
        }
        // The deleted entries' files go first: an entry of the same second may take the name one of them had.
        let kept = Set(live.map { $0.id.uuidString.lowercased() })
        for (key, written) in manifest.entries where !kept.contains(key) {
            try? FileManager.default.removeItem(at: url(written.markdown))
            if let audio = written.audio { try? FileManager.default.removeItem(at: url(audio)) }
            manifest.entries[key] = nil
            summary.removed += 1
        }
        for entry in live {
            let key = entry.id.uuidString.lowercased()
            let stamp = RecordingFilename.localTimestamp(of: entry.createdAt, in: TimeZone(identifier: entry.timeZone) ?? .gmt)
            let name = EntryFiles.name(
                createdAt: entry.createdAt, timeZone: entry.timeZone, id: entry.id, title: entry.title,
                secondTaken: seconds.contains(stamp))
            seconds.insert(stamp)
            var previous = manifest.entries[key]
            // A new name (a new title, a new time): its files move, the recording without being fetched again.
            if let old = previous, old.markdown != "\(name).md" {
                try? FileManager.default.removeItem(at: url(old.markdown))
                if let audio = old.audio, let ext = audio.split(separator: ".").last {
                    try? FileManager.default.moveItem(at: url(audio), to: url("\(name).\(ext)"))
                    previous?.audio = "\(name).\(ext)"
                }
                previous?.sha256 = ""
            }
            var audioFile: String?
            if entry.kind == .audio {
                let ext = AudioContainer(contentType: entry.contentType ?? "")?.fileExtension ?? "m4a"
                let file = "\(name).\(ext)"
                if FileManager.default.fileExists(atPath: url(file).path) {
                    audioFile = file
                } else {
                    do {
                        try await recording(entry, url(file))
                        audioFile = file
                        summary.recordingsAdded += 1
                    } catch {
                        summary.recordingsMissing.append((entry.id, "\(error)"))
                    }
                }
            }
            let markdown = EntryFiles.markdown(
                EntryFiles.Fields(
                    id: entry.id, createdAt: entry.createdAt, timeZone: entry.timeZone, durationSeconds: entry.duration,
                    title: entry.title, tags: entry.tags, mood: entry.mood, status: entry.state.rawValue, audioFile: audioFile,
                    text: entry.transcriptClean ?? ""))
            let hash = SHA256.hash(data: Data(markdown.utf8)).map { String(format: "%02x", $0) }.joined()
            if previous?.sha256 == hash, FileManager.default.fileExists(atPath: url("\(name).md").path) {
                summary.unchanged += 1
            } else {
                try Data(markdown.utf8).write(to: url("\(name).md"), options: .atomic)
                summary.written += 1
            }
            manifest.entries[key] = Written(markdown: "\(name).md", audio: audioFile, sha256: hash)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(manifest).write(to: manifestURL, options: .atomic)
        return summary
    }

    private func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
}
