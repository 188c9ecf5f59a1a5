import Foundation
import MyDayAPI

/// An entry as the API's `Entry` schema, written straight from its record: the same bytes as the generated type
/// through `JSONEncoder` with sorted keys (absent optionals left out), several times faster.
enum EntryJSON {
    static func write(_ entry: EntryRecord, to json: inout JSONWriter) {
        // "content_type" sorts first and may be absent: the members after it each bring their own leading comma.
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
        json.member("failure_reason", entry.failureReason)
        json.member("filename", entry.filename)
        json.member("id", entry.id.lowercased)
        json.member("kind", entry.kind.rawValue)
        json.member("language", entry.language)
        json.member("mood", entry.mood)
        json.raw(",")
        json.key("needs_review")
        json.bool(entry.reviewReason != nil)
        json.raw(",")
        json.key("no_speech")
        json.bool(entry.noSpeech)
        json.member("review_reason", entry.reviewReason)
        json.member("size_bytes", entry.sizeBytes)
        json.member("status", entry.status.rawValue)
        json.raw(",")
        json.key("tags")
        json.strings(entry.tags)
        json.member("title", entry.title)
        json.member("transcript_clean", entry.transcriptClean)
        json.member("transcript_raw", entry.transcriptRaw)
        json.member("transcription_percent", entry.transcriptionPercent)
        json.member("tz", entry.timeZone)
        json.raw(",")
        json.key("updated_at")
        date(entry.updatedAt, to: &json)
        if entry.wordsEdited {
            json.raw(",")
            json.key("words_edited")
            json.bool(true)
        }
        json.raw("}")
    }

    private static func date(_ date: Date, to json: inout JSONWriter) {
        json.string(RFC3339DateTranscoder.format(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded())))
    }
}
