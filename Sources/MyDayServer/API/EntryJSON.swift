import Foundation
import MyDayAPI

/// An entry as the API's `Entry` schema, written straight from its record: the same bytes as the generated type
/// through `JSONEncoder` with sorted keys (absent optionals left out), several times faster.
enum EntryJSON {
    static func write(_ entry: EntryRecord, to json: inout JSONWriter) {
        json.raw("{")
        if let contentType = entry.contentType {
            json.key("content_type")
            json.string(contentType)
            json.raw(",")
        }
        json.key("created_at")
        date(entry.createdAt, to: &json)
        json.raw(",")
        json.key("duration_s")
        json.double(entry.durationSeconds)
        if let failureReason = entry.failureReason {
            json.raw(",")
            json.key("failure_reason")
            json.string(failureReason)
        }
        json.raw(",")
        json.key("filename")
        json.string(entry.filename)
        json.raw(",")
        json.key("id")
        json.string(entry.id.lowercased)
        json.raw(",")
        json.key("kind")
        json.string(entry.kind.rawValue)
        if let language = entry.language {
            json.raw(",")
            json.key("language")
            json.string(language)
        }
        if let mood = entry.mood {
            json.raw(",")
            json.key("mood")
            json.int(mood)
        }
        json.raw(",")
        json.key("no_speech")
        json.bool(entry.noSpeech)
        if let sizeBytes = entry.sizeBytes {
            json.raw(",")
            json.key("size_bytes")
            json.int(sizeBytes)
        }
        json.raw(",")
        json.key("status")
        json.string(entry.status.rawValue)
        json.raw(",")
        json.key("tags")
        json.raw("[")
        var first = true
        for tag in entry.tags {
            json.separator(&first)
            json.string(tag)
        }
        json.raw("]")
        if let title = entry.title {
            json.raw(",")
            json.key("title")
            json.string(title)
        }
        if let transcriptClean = entry.transcriptClean {
            json.raw(",")
            json.key("transcript_clean")
            json.string(transcriptClean)
        }
        if let transcriptRaw = entry.transcriptRaw {
            json.raw(",")
            json.key("transcript_raw")
            json.string(transcriptRaw)
        }
        json.raw(",")
        json.key("tz")
        json.string(entry.timeZone)
        json.raw(",")
        json.key("updated_at")
        date(entry.updatedAt, to: &json)
        json.raw("}")
    }

    private static func date(_ date: Date, to json: inout JSONWriter) {
        json.string(RFC3339DateTranscoder.format(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded())))
    }
}
