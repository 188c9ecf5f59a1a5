import ArgumentParser
import Foundation
import MyDayKit
import MyDayModels

/// `myday import PATH…`: audio files, folders of them and Day One exports, each entry of the moment it was made, once.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import audio files (and folders of them) and Day One exports as entries of the moment each was made.",
        discussion: """
            A recording's time is read from the file itself (MP4's creation time, ID3, RIFF or Vorbis date tags), else \
            from a date and time in its name (20260312 081500.m4a, 2026-03-12_08-15-00.mp3), else its modification \
            time. A .zip is read as Day One's JSON export: each entry's words, tags and recordings, at its own date. \
            Nothing already imported is imported again. Stopped part way, run the same command again.
            """)

    @OptionGroup var server: ServerOptions
    @Argument(help: "Audio files (\(DiaryImport.supportedList)), folders, and Day One exports (.zip).") var paths: [String]
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
        let urls = paths.map { URL(fileURLWithPath: $0) }
        let journals = urls.filter { $0.pathExtension.lowercased() == "zip" }
        let (files, skipped) = DiaryImport.find(urls.filter { $0.pathExtension.lowercased() != "zip" }, in: zone)
        var run = Run(importer: DiaryImport(library: workspace.core.library, store: workspace.core.store), output: output)
        run.problems = skipped.map { ($0.url.path, $0.reason) }

        // Everything is copied into this device's queue (and hashed) first, oldest first; then the queue sends.
        if !files.isEmpty || journals.isEmpty { run.queue(files, in: zone, language: language) }
        for journal in journals { run.queue(journal: journal, language: language) }
        output.note("Sending…")
        let summary = try await sendAll(of: run, with: workspace)
        // What the server refused is not kept, here or there (a recording's entry never had its audio, so it goes for
        // good): the reason is given, and a later import tries it again.
        for (id, reason) in refusals.all() {
            guard let source = run.sourceOf[id] else { continue }
            if let audio = try workspace.core.store.deleteEntry(id) { workspace.core.library.removeAudio(audio) }
            // (The server's advice to upload again is for a phone's own recording.)
            run.problems.append((source, reason.replacingOccurrences(of: " Upload it again.", with: "")))
        }
        // Deletions of refused entries, and the tags of journal entries, go up; the entries come down.
        _ = try? await workspace.core.syncEngine.sync()
        let imported = summary.uploaded
        output.line(
            "Imported \(imported) \(imported == 1 ? "entry" : "entries"); \(run.known + summary.alreadyInTheDiary) already in the diary."
        )
        let stillWaiting = try workspace.core.store.pendingUploads().filter { run.sourceOf[$0.entry.id] != nil }.count
        if stillWaiting > 0 {
            output.line("\(stillWaiting) wait on this device; `myday sync` (or this import again) sends them.")
        }
        guard run.problems.isEmpty else {
            output.line("Not imported:")
            for (source, reason) in run.problems { output.line("  \(source): \(reason)") }
            throw ExitCode(1)
        }
    }
}

extension ImportCommand {
    /// Sends what this import queued, pass after pass while the server takes it at its own pace (its rate limit asks to
    /// wait), until nothing of it waits; a pass that moves nothing and was not asked to wait (the server cannot be
    /// reached) ends it, leaving the rest queued. Answers what all passes did.
    private func sendAll(of run: Run, with workspace: Workspace) async throws -> UploadSummary {
        var total = UploadSummary()
        var first = true
        while true {
            let pass = try await workspace.core.uploads.sendDue(evenIfNotDue: first)
            first = false
            total.uploaded += pass.uploaded
            total.alreadyInTheDiary += pass.alreadyInTheDiary
            total.gaveUp += pass.gaveUp
            total.retrying = pass.retrying
            let waiting = try workspace.core.store.pendingUploads().filter {
                run.sourceOf[$0.entry.id] != nil && $0.entry.state == .queued
            }
            let moved = pass.uploaded + pass.alreadyInTheDiary + pass.gaveUp > 0
            guard !waiting.isEmpty, pass.pausedBecause == nil, moved || pass.throttled > 0,
                let next = waiting.map(\.upload.nextAttemptAt).min()
            else { return total }
            let wait = max(0, next.timeIntervalSinceNow)
            if wait > 1 {
                Output().note(
                    "The server takes uploads at its own pace: \(total.uploaded + total.alreadyInTheDiary) done, "
                        + "\(waiting.count) to go; going on in \(Int(wait.rounded(.up))) s.")
            }
            try await Task.sleep(for: .seconds(wait))
        }
    }
}

/// One import's progress: what was queued from where, what was known already, and what could not be imported.
private struct Run {
    let importer: DiaryImport
    let output: Output
    /// Where each queued entry came from (a file's path, a journal entry), to name it if the server refuses it.
    var sourceOf: [UUID: String] = [:]
    var known = 0
    var problems: [(String, String)] = []

    mutating func queue(_ files: [DiaryImport.Found], in zone: TimeZone, language: String?) {
        let totalBytes = files.reduce(0) { $0 + $1.sizeBytes }
        output.note("Found \(files.count) audio \(files.count == 1 ? "file" : "files") (\(byteText(totalBytes))).")
        var bytesDone = 0
        for (index, file) in files.enumerated() {
            bytesDone += file.sizeBytes
            let prefix = "[\(index + 1)/\(files.count), \(byteText(bytesDone)) of \(byteText(totalBytes))]"
            let name = file.url.lastPathComponent
            do {
                let sha256 = try DiaryImport.sha256(of: file.url)
                let outcome = try importer.queue(file, sha256: sha256, timeZone: zone, language: language)
                let when = "\(wallClock(file.recordedAt.date, zone)), \(sourceText(file.recordedAt.source)); to send"
                note(outcome, "\(prefix) \(name)", source: file.url.path, queued: when)
            } catch {
                problems.append((file.url.path, "\(error)"))
                output.note("\(prefix) \(name): not imported.")
            }
        }
    }

    mutating func queue(journal: URL, language: String?) {
        let reading: DayOneJournal
        do {
            reading = try DayOneJournal(zip: journal)
        } catch {
            return problems.append((journal.path, "\(error)"))
        }
        problems += reading.problems.map { (journal.path, $0) }
        let entries = reading.entries
        output.note("Found \(entries.count) Day One \(entries.count == 1 ? "entry" : "entries") in \(journal.lastPathComponent).")
        for (index, entry) in entries.enumerated() {
            let prefix = "[\(index + 1)/\(entries.count)] \(wallClock(entry.createdAt, entry.timeZone))"
            let source = "\(journal.path), entry \(entry.uuid)"
            do {
                let outcome = try importer.queue(entry, from: reading, language: language)
                if let words = outcome.words { note(words, "\(prefix) words", source: source, queued: "to send") }
                for recording in outcome.recordings {
                    note(recording, "\(prefix) recording", source: source, queued: "to send")
                }
            } catch {
                problems.append((source, "\(error)"))
                output.note("\(prefix): not imported.")
            }
        }
    }

    private mutating func note(_ outcome: DiaryImport.Outcome, _ what: String, source: String, queued: String) {
        switch outcome {
        case .queued(let id):
            sourceOf[id] = source
            output.note("\(what): \(queued).")
        case .alreadyQueued(let id):
            sourceOf[id] = source
            output.note("\(what): already waiting to be sent.")
        case .alreadyInTheDiary(let id):
            known += 1
            output.note("\(what): already in the diary (\(id.short)).")
        }
    }

    private func wallClock(_ date: Date, _ zone: TimeZone) -> String {
        let stamp = RecordingFilename.localTimestamp(of: date, in: zone)
        return "\(stamp.prefix(10)) \(stamp.dropFirst(11).replacingOccurrences(of: "-", with: ":"))"
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
