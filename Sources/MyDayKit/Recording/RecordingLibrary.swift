import Foundation
import MyDayModels

/// The folder of recordings on this device: finished files in `recordings/`, recordings in progress in `incoming/`.
///
/// A recording is written under `incoming/` next to a small JSON note of when and where it started, and
/// moved into `recordings/` with one rename when it stops. After a crash, `recoverInterrupted()` turns
/// what `incoming/` holds into finished recordings, or discards it when it holds no audio.
///
/// A compressed file cannot be read until it is closed, so a capture may also write the audio as WAV
/// beside it (`pcmCopy(of:)`) while recording and convert on stop; after a crash the WAV is recovered.
public struct RecordingLibrary: Sendable {
    public let root: URL

    /// What a recording in progress needs to become an entry, kept beside its audio.
    struct Start: Codable {
        let id: UUID
        let startedAt: Date
        let timeZone: String
        var container: AudioContainer
        let language: String?
    }

    public init(root: URL) throws {
        self.root = root
        for folder in [recordings, incoming] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    var recordings: URL { root.appendingPathComponent("recordings", isDirectory: true) }
    var incoming: URL { root.appendingPathComponent("incoming", isDirectory: true) }

    /// Where the audio of a recording that starts now is written until it stops.
    public func beginRecording(
        id: UUID, startedAt: Date, timeZone: TimeZone, container: AudioContainer = .mp4, language: String? = nil
    ) throws -> URL {
        let start = Start(id: id, startedAt: startedAt, timeZone: timeZone.identifier, container: container, language: language)
        try FileSystem.write(JSONEncoder.myDay.encode(start), replacing: note(for: id))
        return temporaryAudio(for: id, container: container)
    }

    /// Where a capture may keep an uncompressed copy of the recording written to `file` while it records.
    public static func pcmCopy(of file: URL) -> URL { file.deletingPathExtension().appendingPathExtension("wav") }

    /// Moves a stopped recording into the library. `duration` is used when the file's own cannot be read.
    ///
    /// The note of its start stays until `forgetStart(of:)`, called once the entry is in the store, so a
    /// crash between the two is recovered at the next launch.
    public func finishRecording(id: UUID, duration: TimeInterval? = nil) throws -> FinishedRecording {
        let start = try JSONDecoder.myDay.decode(Start.self, from: Data(contentsOf: note(for: id)))
        return try finish(start, duration: duration)
    }

    /// The recording with this id is safely an entry now; its start note is no longer needed.
    public func forgetStart(of id: UUID) {
        try? FileManager.default.removeItem(at: note(for: id))
    }

    /// Removes every recording in progress (after the account's diary was forgotten on this device).
    public func discardIncoming() throws {
        for file in try FileManager.default.contentsOfDirectory(at: incoming, includingPropertiesForKeys: nil) {
            try FileManager.default.removeItem(at: file)
        }
    }

    /// Copies an audio file (for example one the CLI was given) into the library as a new recording.
    public func importFile(
        _ source: URL, id: UUID = UUID(), startedAt: Date, timeZone: TimeZone, language: String? = nil
    ) throws -> FinishedRecording {
        guard let container = AudioContainer(fileExtension: source.pathExtension) else {
            throw RecordingLibraryError.unsupportedFile(source.lastPathComponent)
        }
        // Copied under a name recovery ignores, and noted only once complete, so a half copy is never an entry.
        let partial = incoming.appendingPathComponent("\(id.uuidString.lowercased()).partial")
        try FileManager.default.copyItem(at: source, to: partial)
        do {
            let temporary = temporaryAudio(for: id, container: container)
            try FileSystem.replace(temporary, with: partial)
            _ = try beginRecording(id: id, startedAt: startedAt, timeZone: timeZone, container: container, language: language)
            return try finishRecording(id: id)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Turns the recordings a crash left in `incoming/` into finished ones (also those moved into the
    /// library whose entry was not written yet); discards those without audio. Their start notes stay
    /// until `forgetStart(of:)`.
    public func recoverInterrupted() throws -> [FinishedRecording] {
        let notes = try FileManager.default.contentsOfDirectory(at: incoming, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        var recovered: [FinishedRecording] = []
        for note in notes {
            guard let noted = try? JSONDecoder.myDay.decode(Start.self, from: Data(contentsOf: note)) else {
                try FileManager.default.removeItem(at: note)
                continue
            }
            let start = try preferringReadableAudio(noted)
            let audio = temporaryAudio(for: start.id, container: start.container)
            if !FileManager.default.fileExists(atPath: audio.path), FileManager.default.fileExists(atPath: finalAudio(start).path)
            {
                recovered.append(try finish(start, duration: nil))
                continue
            }
            let duration = AudioDuration.of(audio)
            if Self.size(of: audio) == 0 || duration == 0 {
                try? FileManager.default.removeItem(at: audio)
                try FileManager.default.removeItem(at: note)
                continue
            }
            recovered.append(try finish(start, duration: duration))
        }
        return recovered
    }

    /// The recording's own file when it is readable audio (its WAV copy is then removed), else the WAV copy a
    /// capture kept while recording, which a crash leaves whole.
    private func preferringReadableAudio(_ start: Start) throws -> Start {
        let audio = temporaryAudio(for: start.id, container: start.container)
        let pcm = Self.pcmCopy(of: audio)
        guard start.container != .wav, FileManager.default.fileExists(atPath: pcm.path) else { return start }
        if (AudioDuration.of(audio) ?? 0) > 0 {
            try FileManager.default.removeItem(at: pcm)
            return start
        }
        try? FileManager.default.removeItem(at: audio)
        var fallback = start
        fallback.container = .wav
        return fallback
    }

    /// The file of an entry's audio path.
    public func url(of audioPath: String) -> URL { root.appendingPathComponent(audioPath) }

    /// Removes audio the server has and no entry needs any more.
    public func removeAudio(_ audioPath: String) {
        try? FileManager.default.removeItem(at: url(of: audioPath))
    }

    /// Moves the audio into `recordings/` (unless a crash after the move already put it there).
    private func finish(_ start: Start, duration: TimeInterval?) throws -> FinishedRecording {
        let temporary = temporaryAudio(for: start.id, container: start.container)
        let destination = finalAudio(start)
        let filename = destination.lastPathComponent
        if FileManager.default.fileExists(atPath: temporary.path) {
            guard Self.size(of: temporary) > 0 else { throw RecordingLibraryError.empty(filename) }
            try FileSystem.replace(destination, with: temporary)
        }
        let size = Self.size(of: destination)
        guard size > 0 else { throw RecordingLibraryError.empty(filename) }
        let measured = AudioDuration.of(destination)
        return FinishedRecording(
            id: start.id, startedAt: start.startedAt, timeZone: start.timeZone, duration: measured ?? duration ?? 0,
            audioPath: "recordings/\(filename)", container: start.container, sizeBytes: size, language: start.language)
    }

    private func finalAudio(_ start: Start) -> URL {
        let zone = TimeZone(identifier: start.timeZone) ?? .current
        return recordings.appendingPathComponent(
            RecordingFilename.make(
                id: start.id, start: start.startedAt, timeZone: zone, fileExtension: start.container.fileExtension))
    }

    private func temporaryAudio(for id: UUID, container: AudioContainer) -> URL {
        incoming.appendingPathComponent("\(id.uuidString.lowercased()).\(container.fileExtension)")
    }

    private func note(for id: UUID) -> URL {
        incoming.appendingPathComponent("\(id.uuidString.lowercased()).json")
    }

    private static func size(of file: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// Why a file could not become a recording.
public enum RecordingLibraryError: Error, Equatable, CustomStringConvertible {
    case unsupportedFile(String)
    case empty(String)

    public var description: String {
        switch self {
        case .unsupportedFile(let name): "\(name): not an audio file My Day takes (m4a, wav, webm, ogg, mp3)."
        case .empty(let name): "\(name) holds no audio."
        }
    }
}
