import Foundation

/// How an entry is written as files, the same in an export and in a synced markdown folder: named after when it was
/// recorded (and its title), a markdown file with YAML front matter, and its recording beside it.
public enum EntryFiles {
    /// What an entry's markdown says.
    public struct Fields: Sendable {
        public var id: UUID
        public var createdAt: Date
        public var timeZone: String
        public var durationSeconds: Double
        public var title: String?
        public var tags: [String]
        public var mood: Int?
        /// `transcribed`, `queued`…
        public var status: String
        /// The recording's file name beside the markdown, when it is there.
        public var audioFile: String?
        /// The clean transcript, or the text of a written entry.
        public var text: String

        public init(
            id: UUID, createdAt: Date, timeZone: String, durationSeconds: Double, title: String?, tags: [String], mood: Int?,
            status: String, audioFile: String?, text: String
        ) {
            self.id = id
            self.createdAt = createdAt
            self.timeZone = timeZone
            self.durationSeconds = durationSeconds
            self.title = title
            self.tags = tags
            self.mood = mood
            self.status = status
            self.audioFile = audioFile
            self.text = text
        }
    }

    /// The name of an entry's files without extension: `YYYY-MM-DD_HH-mm-ss` in its own zone, then `_<uuid8>` when an
    /// entry of the same second was named first, then its title, if it has one (`2026-05-03_21-04-10 Walk by the river`).
    public static func name(createdAt: Date, timeZone: String, id: UUID, title: String?, secondTaken: Bool) -> String {
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        var name = RecordingFilename.localTimestamp(of: createdAt, in: zone)
        if secondTaken { name += "_" + RecordingFilename.uuid8(id) }
        if let title = title.map(fileNamePart), !title.isEmpty { name += " " + title }
        return name
    }

    /// A title as part of a file name: no path separators or characters other systems refuse, one space between words,
    /// at most 60 characters and 150 bytes (a file name may have 255 bytes, and emoji take four each). The joiners
    /// inside Persian words and emoji stay; other invisible format characters (such as right-to-left overrides) go.
    public static func fileNamePart(_ title: String) -> String {
        let refused = CharacterSet(charactersIn: "/\\:*?\"<>|").union(.controlCharacters)
            .subtracting(CharacterSet(charactersIn: "\u{200C}\u{200D}"))
        let words = title.unicodeScalars.map { refused.contains($0) ? " " : String($0) }.joined()
            .split(whereSeparator: \.isWhitespace)
        var part = words.joined(separator: " ")
        while part.hasPrefix(".") { part.removeFirst() }
        var cut = ""
        for character in part.prefix(60) {
            guard cut.utf8.count + character.utf8.count <= 150 else { break }
            cut.append(character)
        }
        return cut.trimmingCharacters(in: .whitespaces)
    }

    /// Markdown with YAML front matter (date with its offset, time zone, duration, title, tags, mood, audio file,
    /// status, id), then the words; strings are JSON-quoted, which YAML reads as double-quoted scalars.
    public static func markdown(_ fields: Fields) -> String {
        let zone = TimeZone(identifier: fields.timeZone) ?? .gmt
        var lines = ["---"]
        lines.append("date: \(fields.createdAt.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone)))")
        lines.append("time_zone: \(quoted(fields.timeZone))")
        lines.append("duration_s: \(fields.durationSeconds)")
        if let title = fields.title { lines.append("title: \(quoted(title))") }
        lines.append("tags: [\(fields.tags.map(quoted).joined(separator: ", "))]")
        if let mood = fields.mood { lines.append("mood: \(mood)") }
        if let audio = fields.audioFile { lines.append("audio: \(quoted(audio))") }
        lines.append("status: \(fields.status)")
        lines.append("id: \(fields.id.uuidString.lowercased())")
        lines.append("---")
        return lines.joined(separator: "\n") + "\n\n" + fields.text + "\n"
    }

    /// A string as JSON quotes it, which YAML reads as a double-quoted scalar.
    public static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
