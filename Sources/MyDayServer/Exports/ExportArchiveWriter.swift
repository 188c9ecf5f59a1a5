import Crypto
import Foundation
import MyDayModels
import MyDaySearch
import MyDaySpeech
import ZIPFoundation

/// Writes one export's zip file, entry by entry: audio stored as uploaded (not deflated), clean text
/// deflated, optional markdown and JSON, a README, `index.html` (the diary readable offline in a browser) and
/// `SHA256SUMS` of every other file. Nothing larger than a read buffer is held in memory; entries.json, the index's
/// entries and the sums grow in scratch files. ZIP64 takes over past 4 GB.
///
/// Blocking file I/O: call it from a thread pool, from one task at a time.
final class ExportArchiveWriter: @unchecked Sendable {
    private let archive: Archive
    private let formats: Set<String>
    private let jsonURL: URL
    private let json: FileHandle
    /// The index page's entries, and the `sha256sum` lines of the files added so far.
    private let indexURL: URL
    private let index: FileHandle
    private let sumsURL: URL
    private let sums: FileHandle
    /// The recording times (`YYYY-MM-DD_HH-mm-ss`) of the entries named so far.
    private var usedSeconds: Set<String> = []
    private(set) var counts = ExportCounts()
    /// Files of entries in the archive without a transcript yet, with their status.
    private var untranscribed: [(name: String, status: String)] = []
    /// Files of entries whose words are those of an earlier transcript: transcribing them again failed.
    private var keptEarlierWords: [String] = []
    /// The archive's entries by the day each was made on (in its own zone), for the days' markdown: id and file name.
    private(set) var days: [LocalDay: [(id: UUID, name: String)]] = [:]

    init(url: URL, formats: [String]) throws {
        try? FileManager.default.removeItem(at: url)
        archive = try Archive(url: url, accessMode: .create)
        self.formats = Set(formats)
        jsonURL = url.appendingPathExtension("entries.json")
        try Data("[".utf8).write(to: jsonURL)
        json = try FileHandle(forWritingTo: jsonURL)
        try json.seekToEnd()
        indexURL = url.appendingPathExtension("index.html")
        index = try Self.scratch(indexURL)
        sumsURL = url.appendingPathExtension("SHA256SUMS")
        sums = try Self.scratch(sumsURL)
    }

    private static func scratch(_ url: URL) throws -> FileHandle {
        try Data().write(to: url)
        return try FileHandle(forWritingTo: url)
    }

    deinit {
        for (handle, url) in [(json, jsonURL), (index, indexURL), (sums, sumsURL)] {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Adds an entry's files; `audio` is a local copy of its recording, when it has one.
    func add(_ exported: ExportedEntry, audio: URL?) throws {
        let entry = exported.entry
        let zone = TimeZone(identifier: entry.timeZone) ?? TimeZone(identifier: "UTC")!
        let stamp = RecordingFilename.localTimestamp(of: entry.createdAt, in: zone)
        let name = EntryFiles.name(
            createdAt: entry.createdAt, timeZone: entry.timeZone, id: entry.id, title: entry.title,
            secondTaken: usedSeconds.contains(stamp))
        usedSeconds.insert(stamp)
        counts.entries += 1

        var audioFile: String?
        if let audio {
            let container = AudioContainer(rawValue: entry.contentType ?? "") ?? .mp4
            audioFile = "\(name).\(container.fileExtension)"
            try addFile(audioFile!, at: audio, compression: .none)
            counts.audioFiles += 1
        }
        try index.write(contentsOf: Data(ArchiveIndexPage.article(entry, audioFile: audioFile).utf8))
        // Words once stored stay in the archive while the entry is transcribed again, and when that fails.
        let hasWords = entry.kind == .text || entry.status == .transcribed || entry.transcriptClean != nil
        if hasWords {
            try addText("\(name).txt", Data(Self.text(entry, zone: zone).utf8), date: entry.createdAt)
            if entry.kind == .audio && entry.status == .failed { keptEarlierWords.append(name) }
        } else {
            counts.untranscribed += 1
            untranscribed.append((name, entry.status.rawValue))
            // What the person typed about it (title, tags, mood) is kept even before there are words.
            if entry.title != nil || !entry.tags.isEmpty || entry.mood != nil {
                try addText("\(name).txt", Data(Self.header(entry, zone: zone).utf8), date: entry.createdAt)
            }
        }
        if formats.contains("markdown") {
            let fields = EntryFiles.Fields(
                id: entry.id, createdAt: entry.createdAt, timeZone: entry.timeZone, durationSeconds: entry.durationSeconds,
                title: entry.title, tags: entry.tags, mood: entry.mood, status: entry.status.rawValue, audioFile: audioFile,
                text: entry.transcriptClean ?? "")
            try addText("\(name).md", Data(EntryFiles.markdown(fields).utf8), date: entry.createdAt)
            days[LocalDay(entry.createdAt, in: zone), default: []].append((entry.id, name))
        }
        if formats.contains("json") {
            try json.write(contentsOf: Data(((counts.entries > 1 ? "," : "") + "\n" + (try Self.json(exported))).utf8))
        }
    }

    /// Adds `days/YYYY-MM-DD.md` of a day of the archive: its tags and mood, its digest in its own words (each sentence
    /// naming its entry's file, and where a recorded one begins), and links to its entries' markdown.
    func addDay(_ day: LocalDay, entries: [EntryRecord], digest: [DigestSentence]) throws {
        let names = Dictionary((days[day] ?? []).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let kept = entries.filter { names[$0.id] != nil }
        guard !kept.isEmpty else { return }
        let tags = tagsByUse(kept.flatMap(\.tags))
        var lines = [
            "---", "date: \(day)", "entries: \(kept.count)", "tags: [\(tags.map(EntryFiles.quoted).joined(separator: ", "))]",
        ]
        if let mood = DiaryInsights.mood(of: kept.compactMap(\.mood)) { lines.append("mood: \(mood)") }
        lines += ["---", "", "# \(Self.longDate(day))", ""]
        if !digest.isEmpty {
            lines.append("The day in its own words:")
            lines.append("")
            for sentence in digest {
                let at = sentence.start.map { " at \(Self.clockLength(seconds: $0))" } ?? ""
                lines.append("> \(sentence.text)  ")
                lines.append("> — \(names[sentence.entryID] ?? "")\(at)")
                lines.append("")
            }
        }
        lines.append("Entries:")
        lines.append("")
        for entry in kept {
            let name = names[entry.id]!
            lines.append("- [\(name)](<../\(name).md>)")
        }
        try addText("days/\(day).md", Data((lines.joined(separator: "\n") + "\n").utf8), date: Date())
    }

    /// Whether the archive holds the entry, as one of `day`'s.
    func holds(_ id: UUID, on day: LocalDay) -> Bool { days[day]?.contains { $0.id == id } ?? false }

    /// "Sunday 29 March 2026".
    static func longDate(_ day: LocalDay) -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.calendar = Calendar(identifier: .gregorian)
        format.timeZone = .gmt
        format.dateFormat = "EEEE d MMMM yyyy"
        return format.string(
            from: Calendar(identifier: .gregorian).date(
                from: DateComponents(
                    timeZone: .gmt, year: day.year, month: day.month, day: day.day, hour: 12)) ?? Date())
    }

    /// Adds `entries.json` and `vocabulary.json` (when JSON is asked for), the index page, the README and the sums;
    /// the archive is then complete. `range` names the export's days for the index page.
    func finish(readmeHeader: String, range: String, vocabulary: [VocabularyWord]) throws {
        if formats.contains("json") {
            try json.write(contentsOf: Data("\n]\n".utf8))
            try json.synchronize()
            try addFile("entries.json", at: jsonURL, compression: .deflate)
            // The person's words as `GET /v1/me/vocabulary` gives them.
            let words = vocabulary.map { ["text": $0.text, "source": $0.source.rawValue] }
            let data = try JSONSerialization.data(
                withJSONObject: ["words": words], options: [.sortedKeys, .withoutEscapingSlashes])
            try addText("vocabulary.json", data, date: Date())
        }
        try addIndexPage(range: range)
        var readme = readmeHeader
        readme += "\nEntries: \(counts.entries), audio files: \(counts.audioFiles).\n"
        readme += """

            Each entry is named after when it was recorded, in the time zone it was recorded in
            (YYYY-MM-DD_HH-mm-ss; two entries of the same second get the first characters of their id),
            then its title, if it has one:
              .m4a .wav .webm .ogg .mp3  the recording as it was uploaded (browser recordings made seekable)
              .txt                       title, date, length, tags and mood, a blank line, then the clean
                                         transcript or the text of a written entry

            """
        if formats.contains("markdown") {
            readme += "  .md                        the same with YAML front matter (date, duration, title, tags, mood)\n"
            readme += "  days/YYYY-MM-DD.md         each day: its tags and mood, one to three of its own sentences, its entries\n"
        }
        if formats.contains("json") {
            readme += "  entries.json               every field of every entry, both transcripts and word timings\n"
            readme += "  vocabulary.json            your vocabulary: the names and words the recognizer is taught\n"
        }
        readme += "  index.html                 open it in a browser: every day, its entries and their recordings, a search box\n"
        readme += "  SHA256SUMS                 the SHA-256 of every other file; `sha256sum -c SHA256SUMS` checks them\n"
        if untranscribed.isEmpty {
            readme += "\nEvery entry is transcribed.\n"
        } else {
            readme += "\nNot transcribed yet (their audio where it was uploaded; a .txt only of what was typed about them):\n"
            for (name, status) in untranscribed { readme += "  \(name)  (\(status.replacingOccurrences(of: "_", with: " ")))\n" }
        }
        if !keptEarlierWords.isEmpty {
            readme += "\nTranscribing these again failed; their words are those of the transcript before:\n"
            for name in keptEarlierWords { readme += "  \(name)\n" }
        }
        try addText("README.txt", Data(readme.utf8), date: Date())
        try sums.synchronize()
        try archive.addEntry(with: "SHA256SUMS", fileURL: sumsURL, compressionMethod: .deflate)
    }

    /// `index.html`: its opening, the entries written so far, its closing.
    private func addIndexPage(range: String) throws {
        let page = indexURL.appendingPathExtension("page")
        defer { try? FileManager.default.removeItem(at: page) }
        try Data(ArchiveIndexPage.opening(range: range).utf8).write(to: page)
        let output = try FileHandle(forWritingTo: page)
        defer { try? output.close() }
        try output.seekToEnd()
        try index.synchronize()
        let entries = try FileHandle(forReadingFrom: indexURL)
        defer { try? entries.close() }
        while let chunk = try entries.read(upToCount: 1 << 16), !chunk.isEmpty { try output.write(contentsOf: chunk) }
        try output.write(contentsOf: Data(ArchiveIndexPage.closing.utf8))
        try output.synchronize()
        try addFile("index.html", at: page, compression: .deflate)
    }

    /// Adds a file from disk, noting its SHA-256 (read once more, a buffer at a time).
    private func addFile(_ name: String, at url: URL, compression: CompressionMethod) throws {
        let file = try FileHandle(forReadingFrom: url)
        defer { try? file.close() }
        var hash = SHA256()
        while let chunk = try file.read(upToCount: 1 << 16), !chunk.isEmpty { hash.update(data: chunk) }
        try noteSum(hash.finalize(), name)
        try archive.addEntry(with: name, fileURL: url, compressionMethod: compression)
    }

    private func addText(_ name: String, _ data: Data, date: Date) throws {
        try noteSum(SHA256.hash(data: data), name)
        try archive.addEntry(
            with: name, type: .file, uncompressedSize: Int64(data.count), modificationDate: date, compressionMethod: .deflate
        ) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    /// A line as `sha256sum` writes it: the hash, two spaces, the name.
    private func noteSum(_ digest: SHA256.Digest, _ name: String) throws {
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        try sums.write(contentsOf: Data("\(hex)  \(name)\n".utf8))
    }

    /// The `.txt` of an entry: its header, a blank line, then the clean transcript or the written text.
    static func text(_ entry: EntryRecord, zone: TimeZone) -> String {
        header(entry, zone: zone) + "\n" + (entry.transcriptClean ?? "") + "\n"
    }

    /// `Title:`, `Date:`, `Length:`, `Tags:` and `Mood:` lines, each only when the entry has it.
    static func header(_ entry: EntryRecord, zone: TimeZone) -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.calendar = Calendar(identifier: .gregorian)
        format.timeZone = zone
        format.dateFormat = "EEEE d MMMM yyyy, HH:mm"
        var lines: [String] = []
        if let title = entry.title, !title.isEmpty { lines.append("Title: \(title)") }
        lines.append("Date: \(format.string(from: entry.createdAt)) (\(entry.timeZone))")
        if entry.kind == .audio { lines.append("Length: \(clockLength(seconds: entry.durationSeconds))") }
        if !entry.tags.isEmpty { lines.append("Tags: \(entry.tags.joined(separator: ", "))") }
        if let mood = entry.mood { lines.append("Mood: \(mood) of 5") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `m:ss`, or `h:mm:ss` from an hour on, whole seconds rounded down as players show them.
    static func clockLength(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    /// One entry as a JSON object with every field the server keeps.
    static func json(_ exported: ExportedEntry) throws -> String {
        let entry = exported.entry
        // Every field of the API's entry, as `GET /v1/entries/{id}` writes it, and the words with their times.
        var fields = JSONWriter(capacity: 1024)
        EntryJSON.write(entry, to: &fields)
        guard var object = try JSONSerialization.jsonObject(with: Data(fields.bytes)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        if let json = exported.wordsJSON, let heard = try? RecognizedWord.list(fromJSON: json) {
            // The words as they read now with their times, as `GET /v1/entries/{id}/words` gives them; and every
            // word as it was heard, fillers included.
            object["words"] = EntryWords.align(text: entry.transcriptClean ?? "", heard: heard).map { word in
                var timed: [String: Any] = ["text": word.text]
                timed["start"] = word.start
                timed["end"] = word.end
                timed["p"] = word.probability
                return timed
            }
            object["heard_words"] = heard.map { word in
                var timed: [String: Any] = ["text": word.word, "start": word.start, "end": word.end]
                timed["p"] = word.probability
                return timed
            }
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
