import Foundation
import MyDayModels

#if canImport(CryptoKit)
    import CryptoKit
#else
    import Crypto
#endif

/// Brings audio files into the diary as recordings of the moment they were made (`RecordingTime`: the container's tags,
/// then the file's name, then its modification time), and Day One journals as their entries (`DiaryImport+DayOne`),
/// each only once: what is already queued here is not queued again, and the server answers the entry it already made
/// of a source it has (by the SHA-256 of a file's bytes, or of a journal entry's id).
public struct DiaryImport: Sendable {
    /// The extensions of the files an import takes (folders are searched for these).
    public static let fileExtensions: Set<String> = ["m4a", "mp4", "mp3", "wav", "ogg", "oga", "opus", "webm", "flac", "aac"]

    /// An audio file found for import, with when it was recorded.
    public struct Found: Sendable, Equatable {
        public let url: URL
        public let recordedAt: RecordingTime
        public let sizeBytes: Int
    }

    /// A path that is not imported, and why.
    public struct Skipped: Sendable, Equatable {
        public let url: URL
        public let reason: String
    }

    /// What queueing one file did.
    public enum Outcome: Sendable, Equatable {
        /// Copied into the library and queued as this entry.
        case queued(UUID)
        /// A file with the same bytes waits in the queue already, as this entry.
        case alreadyQueued(UUID)
        /// A file with the same bytes was imported on this device, as this entry (nothing is copied).
        case alreadyInTheDiary(UUID)
    }

    let library: RecordingLibrary
    let store: LocalStore

    public init(library: RecordingLibrary, store: LocalStore) {
        self.library = library
        self.store = store
    }

    /// The audio files among `paths` (folders searched through, hidden files left out), oldest recording first, so
    /// that they are sent, and transcribed, in the order they were made. A named file that is missing or not audio of a
    /// kind the diary keeps is skipped, with the reason; other files inside folders are passed over.
    public static func find(_ paths: [URL], in timeZone: TimeZone) -> (files: [Found], skipped: [Skipped]) {
        var files: [Found] = []
        var skipped: [Skipped] = []
        func add(_ url: URL) {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
            guard size > 0 else { return skipped.append(Skipped(url: url, reason: "The file is empty.")) }
            files.append(Found(url: url, recordedAt: RecordingTime.of(url, in: timeZone), sizeBytes: size))
        }
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
                skipped.append(Skipped(url: path, reason: "There is no such file or folder."))
                continue
            }
            guard isFolder.boolValue else {
                if fileExtensions.contains(path.pathExtension.lowercased()) {
                    add(path)
                } else {
                    skipped.append(Skipped(url: path, reason: "Not an audio file My Day imports (\(supportedList))."))
                }
                continue
            }
            let walker = FileManager.default.enumerator(
                at: path, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            let inside = (walker?.allObjects as? [URL] ?? [])
                .filter { fileExtensions.contains($0.pathExtension.lowercased()) }
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                .sorted { $0.path < $1.path }
            inside.forEach(add)
        }
        files.sort { ($0.recordedAt.date, $0.url.path) < ($1.recordedAt.date, $1.url.path) }
        return (files, skipped)
    }

    /// The extensions an import takes, for messages.
    public static var supportedList: String { fileExtensions.sorted().joined(separator: ", ") }

    /// Queues `file` as a recording of the moment it was made, unless a file with the same bytes is queued already.
    /// `sha256` is the file's hash when the caller has it (`Self.sha256(of:)`).
    public func queue(_ file: Found, sha256: String, timeZone: TimeZone, language: String?) throws -> Outcome {
        if let known = try store.importedFile(sourceSHA256: sha256) {
            return known.queued ? .alreadyQueued(known.entryID) : .alreadyInTheDiary(known.entryID)
        }
        let recording = try library.importFile(
            file.url, startedAt: file.recordedAt.date, timeZone: timeZone, language: language)
        try store.recordFinished(recording, sourceSHA256: sha256)
        library.forgetStart(of: recording.id)
        return .queued(recording.id)
    }

    /// The SHA-256 of the file's bytes in lowercase hex, read a megabyte at a time.
    public static func sha256(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        return hex(hash.finalize())
    }

    /// The SHA-256 of `text`'s UTF-8 in lowercase hex.
    static func sha256(of text: String) -> String { hex(SHA256.hash(data: Data(text.utf8))) }

    private static func hex(_ digest: SHA256.Digest) -> String { digest.map { String(format: "%02x", $0) }.joined() }
}
