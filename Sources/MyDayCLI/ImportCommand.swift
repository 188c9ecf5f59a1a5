import ArgumentParser
import Foundation
import MyDayKit
import MyDayModels

/// `myday import PATH…`: audio files and folders of them, each an entry of the moment it was recorded, each only once.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import audio files (and folders of them) as entries of the moment each was recorded.",
        discussion: """
            The recording time is read from the file itself (MP4's creation time, ID3, RIFF or Vorbis date tags), else \
            from a date and time in its name (20260312 081500.m4a, 2026-03-12_08-15-00.mp3), else its modification \
            time. A file already imported is not imported again. Stopped part way, run the same command again.
            """)

    @OptionGroup var server: ServerOptions
    @Argument(help: "Audio files (\(AudioImport.supportedList)) and folders, searched through.") var paths: [String]
    @Option(help: "The time zone the recordings were made in (default: this machine's).") var tz: String?
    @Option(help: "The spoken language, e.g. en-US.") var language: String?

    func run() async throws {
        let zone = try timeZone(tz)
        let output = Output()
        let refusals = Refusals()
        let progress = output.uploadEvent
        let workspace = try Workspace(options: server, output: output) { event in
            refusals.note(event)
            progress(event)
        }
        let (files, skipped) = AudioImport.find(paths.map { URL(fileURLWithPath: $0) }, in: zone)
        let totalBytes = files.reduce(0) { $0 + $1.sizeBytes }
        output.note("Found \(files.count) audio \(files.count == 1 ? "file" : "files") (\(byteText(totalBytes))).")

        // Each file is copied into this device's queue and hashed first, oldest recording first; then the queue sends.
        let importer = AudioImport(library: workspace.core.library, store: workspace.core.store)
        var problems = skipped.map { ($0.url.path, $0.reason) }
        var fileOf: [UUID: String] = [:]
        var bytesDone = 0
        var known = 0
        for (index, file) in files.enumerated() {
            bytesDone += file.sizeBytes
            let stamp = RecordingFilename.localTimestamp(of: file.recordedAt.date, in: zone)
            let when = "\(stamp.prefix(10)) \(stamp.dropFirst(11).replacingOccurrences(of: "-", with: ":"))"
            let prefix = "[\(index + 1)/\(files.count), \(byteText(bytesDone)) of \(byteText(totalBytes))]"
            do {
                let sha256 = try AudioImport.sha256(of: file.url)
                switch try importer.queue(file, sha256: sha256, timeZone: zone, language: language) {
                case .queued(let id):
                    fileOf[id] = file.url.path
                    output.note(
                        "\(prefix) \(file.url.lastPathComponent): \(when), \(sourceText(file.recordedAt.source)); to send.")
                case .alreadyQueued(let id):
                    fileOf[id] = file.url.path
                    output.note("\(prefix) \(file.url.lastPathComponent): already waiting to be sent.")
                case .alreadyInTheDiary(let id):
                    known += 1
                    output.note("\(prefix) \(file.url.lastPathComponent): already in the diary (\(id.short)).")
                }
            } catch {
                problems.append((file.url.path, "\(error)"))
                output.note("\(prefix) \(file.url.lastPathComponent): not imported.")
            }
        }
        output.note("Sending…")
        let summary = try await workspace.core.uploads.sendDue(evenIfNotDue: true)
        // A file the server refused is not kept, here or there (its entry never had audio, so it goes for good): the
        // reason is given, and a later import tries it again.
        let refused = refusals.all().filter { fileOf[$0.0] != nil }
        for (id, reason) in refused {
            if let audio = try workspace.core.store.deleteEntry(id) { workspace.core.library.removeAudio(audio) }
            // (The server's advice to upload again is for a phone's own recording.)
            problems.append((fileOf[id]!, reason.replacingOccurrences(of: " Upload it again.", with: "")))
        }
        if !refused.isEmpty { _ = try? await workspace.core.syncEngine.sync() }
        output.line(
            "Imported \(summary.uploaded) \(summary.uploaded == 1 ? "file" : "files"); \(known + summary.alreadyInTheDiary) already in the diary."
        )
        let stillWaiting = try workspace.core.store.pendingUploads().filter { fileOf[$0.entry.id] != nil }.count
        if stillWaiting > 0 {
            output.line("\(stillWaiting) wait on this device; `myday sync` (or this import again) sends them.")
        }
        guard problems.isEmpty else {
            output.line("Not imported:")
            for (path, reason) in problems { output.line("  \(path): \(reason)") }
            throw ExitCode(1)
        }
    }

    private func sourceText(_ source: RecordingTime.Source) -> String {
        switch source {
        case .container: "from the file's own tags"
        case .filename: "from its name"
        case .modified: "from its modification time"
        }
    }

    private func byteText(_ bytes: Int) -> String { ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file) }
}

/// The entries the server refused during an import, with its reasons.
private final class Refusals: @unchecked Sendable {
    private let lock = NSLock()
    private var refused: [(UUID, String)] = []

    func note(_ event: UploadEvent) {
        guard case .gaveUp(let id, let reason) = event else { return }
        lock.withLock { refused.append((id, reason)) }
    }

    func all() -> [(UUID, String)] { lock.withLock { refused } }
}
