import ArgumentParser
import Foundation
import MyDayKit
import MyDaySearch

/// `myday add FILE`: a recording from a file, through the same queue as one made on a phone.
struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add an audio file (m4a, wav…) as a recording and upload it.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The audio file.") var file: String
    @Option(help: "When the recording started (ISO 8601; default: the file's modification time).") var at: String?
    @Option(help: "The recording's time zone (default: this machine's).") var tz: String?
    @Option(help: "The spoken language, e.g. en-US.") var language: String?

    func run() async throws {
        let workspace = try Workspace(options: server)
        let source = URL(fileURLWithPath: file)
        guard FileManager.default.isReadableFile(atPath: source.path) else { throw ValidationError("Cannot read \(file).") }
        let zone = try timeZone(tz)
        let start = try at.map(parseDate) ?? modificationDate(of: source)
        let recording = try workspace.core.library.importFile(source, startedAt: start, timeZone: zone, language: language)
        try workspace.core.store.recordFinished(recording)
        Output().line(
            "Queued \(recording.id.short) (\(recording.audioPath.split(separator: "/").last ?? ""), \(formattedDuration(recording.duration)))."
        )
        try await sendQueued(workspace)
    }

    private func modificationDate(of file: URL) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date) ?? Date()
    }
}

/// `myday note "text"`: a typed entry.
struct Note: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a typed entry.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The entry's text.") var text: String

    func run() async throws {
        let workspace = try Workspace(options: server)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ValidationError("The text is empty.") }
        let entry = try workspace.core.store.noteWritten(text)
        Output().line("Queued note \(entry.id.short).")
        try await sendQueued(workspace)
    }
}

/// `myday sync`: uploads what waits, then brings in every change from the server.
struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Upload what waits, then fetch the server's changes.")

    @OptionGroup var server: ServerOptions
    @Flag(help: "Keep running, fetching each change as the server announces it (a transcript ready, an edit elsewhere).")
    var watch = false
    @Option(help: "Also keep this folder in step: a markdown file per entry and its recording; your own files stay.")
    var markdown: String?

    func run() async throws {
        let workspace = try Workspace(options: server)
        let (uploads, sync) = try await workspace.core.refresh()
        let unsent = try workspace.core.unsentCount()
        Output().line(
            "Uploaded \(uploads.uploaded), fetched \(sync.received) changed and \(sync.removed) deleted entries"
                + (unsent > 0 ? "; \(unsent) still waiting (see `myday status`)." : "."))
        let folder = markdown.map { MarkdownFolder(folder: URL(fileURLWithPath: $0, isDirectory: true)) }
        if let folder { try await update(folder, from: workspace.core) }
        guard watch else { return }
        Output().line("Watching for changes (Ctrl-C stops).")
        let core = workspace.core
        await ChangeFollower(client: core.client) {
            let changes = try await core.syncEngine.sync()
            for id in changes.receivedIDs {
                guard let entry = try core.store.entry(id) else { continue }
                Output().line("  \(id.short)  \(statusText(entry))  \(headline(entry))")
            }
            for id in changes.removedIDs { Output().line("  \(id.short)  deleted") }
            if let folder { try await update(folder, from: core) }
        }.run()
        throw ValidationError("The session ended; sign in again.")
    }
}

/// Brings the markdown folder in step with the diary on this device, fetching recordings this device does not keep.
private func update(_ folder: MarkdownFolder, from core: ClientCore) async throws {
    let summary = try await folder.update(with: try core.store.entries()) { entry, file in
        if let path = entry.audioPath, FileManager.default.fileExists(atPath: core.library.url(of: path).path) {
            try FileManager.default.copyItem(at: core.library.url(of: path), to: file)
        } else {
            try await SignedDownload.fetch(try await core.client.audioLink(for: entry.id).url, to: file)
        }
    }
    Output().line(
        "\(folder.folder.path): \(summary.written) written, \(summary.recordingsAdded) recordings added, "
            + "\(summary.removed) removed, \(summary.unchanged) unchanged.")
    for (id, reason) in summary.recordingsMissing {
        Output().note("  The recording of \(id.short) is not there yet (\(reason)); a later sync brings it.")
    }
}

/// `myday list`: the diary on this device, newest first, grouped by day.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List entries on this device, newest first (run `sync` first).")

    @OptionGroup var server: ServerOptions
    @Option(help: "Only entries on or after this day (YYYY-MM-DD, in each entry's time zone).") var since: String?

    func run() async throws {
        let workspace = try Workspace(options: server)
        if let since, LocalDay(iso: since) == nil { throw ValidationError("--since takes YYYY-MM-DD.") }
        let entries = try workspace.core.store.entries().filter { since == nil || $0.filename.prefix(10) >= since! }
        var day = ""
        for entry in entries {
            let entryDay = String(entry.filename.prefix(10))
            if entryDay != day {
                Output().line(entryDay)
                day = entryDay
            }
            let time = entry.filename.dropFirst(11).prefix(5).replacingOccurrences(of: "-", with: ":")
            Output().line(
                "  \(entry.id.short)  \(time)  \(formattedDuration(entry.duration))  \(statusText(entry))  \(headline(entry))")
        }
        if entries.isEmpty { Output().line("No entries yet.") }
    }
}

/// `myday show ID`: one entry with its transcript.
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show one entry and its transcript.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The entry's id or its first characters.") var id: String
    @Flag(help: "Show the raw transcript instead of the clean one.") var raw = false

    func run() async throws {
        let workspace = try Workspace(options: server)
        let entry = try workspace.entry(matching: id)
        let output = Output()
        output.line("id:       \(entry.id.uuidString.lowercased())")
        output.line("file:     \(entry.filename)")
        output.line("duration: \(formattedDuration(entry.duration))")
        output.line("status:   \(statusText(entry))\(entry.failureReason.map { " — \($0)" } ?? "")")
        if let title = entry.title { output.line("title:    \(title)") }
        if !entry.tags.isEmpty { output.line("tags:     \(entry.tags.joined(separator: ", "))") }
        if let mood = entry.mood { output.line("mood:     \(mood)/5") }
        output.line("")
        if entry.noSpeech { output.line("(no speech)") }
        output.line((raw ? entry.transcriptRaw : entry.transcriptClean) ?? "(no transcript yet)")
    }
}

/// `myday play-url ID`: a signed link to the audio.
struct PlayURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play-url", abstract: "Print a signed, time-bound link to an entry's audio.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The entry's id or its first characters.") var id: String

    func run() async throws {
        let workspace = try Workspace(options: server)
        let entry = try workspace.entry(matching: id)
        let link = try await workspace.core.client.audioLink(for: entry.id)
        Output().line(link.url.absoluteString)
        Output().note("Valid until \(link.expiresAt.formatted(date: .abbreviated, time: .standard)).")
    }
}

/// `myday delete ID`: deletes an entry here and, at once or at the next sync, on the server.
struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete an entry, here and on the server; `myday deleted` brings it back for 30 days.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The entry's id or its first characters.") var id: String

    func run() async throws {
        let workspace = try Workspace(options: server)
        let entry = try workspace.entry(matching: id)
        if let path = try workspace.core.store.deleteEntry(entry.id) { workspace.core.library.removeAudio(path) }
        do {
            try await workspace.core.syncEngine.sync()
            Output().line("Deleted \(entry.id.short). For 30 days, `myday deleted --restore \(entry.id.short)` brings it back.")
        } catch {
            Output().line("Deleted \(entry.id.short) here; the server learns of it at the next sync (\(error)).")
        }
    }
}
