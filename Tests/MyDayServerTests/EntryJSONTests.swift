import Foundation
import MyDayAPI
import Testing

@testable import MyDayServer

/// The entry list written by hand (`EntryListResponder`, `EntryJSON`) is byte for byte the JSON written out here, for
/// every shape an entry can have: what the generated types give through `JSONEncoder` with the server's settings
/// (sorted keys, slashes unescaped, dates with milliseconds).
@Suite struct EntryJSONTests {
    /// Strings that need every escape JSON has, and characters that need none.
    static let awkward = [
        "plain", "quote \" backslash \\ slash / done", "controls \u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F} end",
        "delete \u{7F}, line separator \u{2028}, paragraph \u{2029}", "Café, Über, Привет, 東京, 😀👩‍👩‍👧", "",
        "<script>alert(1)</script> & ' `",
    ]

    @Test(arguments: TestDatabase.available)
    func theListIsTheseBytes(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let userID = try #require(UUID(uuidString: session.userID))
            // Given eight entries of every shape, with fixed ids and times, written straight into the database: each
            // duration, awkward string and status, with and without audio, title, tags, mood, transcripts, edited words and
            // a transcription's progress; the last one deleted
            let durations: [Double] = [0, 12, 12.5, 0.1, 3600.0004, 1e-7, 59.999, 7_200]
            let moments: [Int] = [1_773_835_215_840, 1_773_835_223_760, 0, 1_773_835_200_000, 4_102_444_799_999, 1_000]
            try await server.withDatabase { driver in
                try await driver.write { db in
                    for index in 0..<8 {
                        let text = Self.awkward[index % Self.awkward.count]
                        let some = index % 2 == 0
                        let tags = some ? #"["walk","fam\"ily","Ünïcode"]"# : "[]"
                        try await db.raw(
                            """
                            INSERT INTO entries (id, user_id, created_at, tz, duration_s, kind, status, failure_reason, filename,
                                content_type, audio_key, size_bytes, language, title, tags, mood, transcript_raw, transcript_clean,
                                no_speech, change_seq, updated_at, deleted_at, local_day, added_at, words_edited,
                                transcription_percent)
                            VALUES (\(bind: "e0000000-0000-4000-8000-00000000000\(index)"), \(bind: userID.uuidString.lowercased()),
                                \(bind: moments[index % moments.count]), \(bind: some ? "Europe/Berlin" : "UTC"),
                                \(bind: durations[index]), \(bind: some ? "audio" : "text"),
                                \(bind: ["transcribed", "failed", "pending_upload", "uploaded"][index % 4]),
                                \(bind: index % 4 == 1 ? "It could not be decoded: \(text)" : nil), \(bind: "f\(index).m4a"),
                                \(bind: some ? "audio/mp4" : nil), \(bind: some ? "audio/x/\(index)" : nil),
                                \(bind: some ? index * 1_000_003 : nil), \(bind: some ? "de" : nil), \(bind: some ? text : nil),
                                \(bind: tags), \(bind: index % 3 == 0 ? nil : index % 5 + 1), \(bind: some ? text.lowercased() : nil),
                                \(bind: index % 3 == 1 ? nil : text), \(bind: index % 7 == 0 ? 1 : 0), \(bind: 1000 + index),
                                \(bind: moments[(index + 1) % moments.count] + 7), \(bind: index == 7 ? 1_773_835_299_001 : nil),
                                20260318, 0, \(bind: index % 3 == 2 ? 1 : 0), \(bind: index % 4 == 3 ? index * 11 : nil))
                            """
                        ).run()
                    }
                }
            }
            // When the list is read through the API, three at a time
            var pages: [String] = []
            var since = "0"
            repeat {
                let reply = try await api.send(.get, "/v1/entries?limit=3&since=\(since)", token: session.accessToken)
                #expect(reply.status == .ok && reply.headers[.contentType] == "application/json; charset=utf-8")
                pages.append(reply.text)
                since = try #require(reply.json["next_cursor"] as? String)
                if reply.json["has_more"] as? Bool != true { break }
            } while pages.count < 10
            // Then its pages are these bytes
            #expect(pages.count == Self.pages.count)
            for (page, expected) in zip(pages, Self.pages) { #expect(page == expected) }
        }
    }

    /// The list of the entries above, three to a page (the deleted one among the ids), written out.
    static let pages = [
        #"""
        {"deleted_ids":[],"entries":[{"content_type":"audio/mp4","created_at":"2026-03-18T12:00:15.840Z","duration_s":0\#
        ,"filename":"f0.m4a","id":"e0000000-0000-4000-8000-000000000000","kind":"audio","language":"de","needs_review":false,"no_speech":true\#
        ,"size_bytes":0,"status":"transcribed","tags":["walk","fam\"ily","Ünïcode"],"title":"plain","transcript_clean":"plain"\#
        ,"transcript_raw":"plain","tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:23.767Z"},\#
        {"created_at":"2026-03-18T12:00:23.760Z","duration_s":12\#
        ,"failure_reason":"It could not be decoded: quote \" backslash \\ slash / done","filename":"f1.m4a"\#
        ,"id":"e0000000-0000-4000-8000-000000000001","kind":"text","mood":2,"needs_review":false,"no_speech":false,"status":"failed","tags":[]\#
        ,"tz":"UTC","updated_at":"1970-01-01T00:00:00.007Z"},{"content_type":"audio/mp4"\#
        ,"created_at":"1970-01-01T00:00:00.000Z","duration_s":12.5,"filename":"f2.m4a"\#
        ,"id":"e0000000-0000-4000-8000-000000000002","kind":"audio","language":"de","mood":3,"needs_review":false,"no_speech":false\#
        ,"size_bytes":2000006,"status":"pending_upload","tags":["walk","fam\"ily","Ünïcode"]\#
        ,"title":"controls \u0001\b\t\n\f\r\u001f end","transcript_clean":"controls \u0001\b\t\n\f\r\u001f end"\#
        ,"transcript_raw":"controls \u0001\b\t\n\f\r\u001f end","tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:00.007Z"\#
        ,"words_edited":true}]\#
        ,"has_more":true,"next_cursor":"1002"}
        """#,
        #"""
        {"deleted_ids":[],"entries":[{"created_at":"2026-03-18T12:00:00.000Z","duration_s":0.1,"filename":"f3.m4a"\#
        ,"id":"e0000000-0000-4000-8000-000000000003","kind":"text","needs_review":false,"no_speech":false,"status":"uploaded","tags":[]\#
        ,"transcript_clean":"delete \#u{7F}, line separator \#u{2028}, paragraph \#u{2029}","transcription_percent":33,"tz":"UTC"\#
        ,"updated_at":"2100-01-01T00:00:00.006Z"},{"content_type":"audio/mp4","created_at":"2099-12-31T23:59:59.999Z"\#
        ,"duration_s":3600.0004,"filename":"f4.m4a","id":"e0000000-0000-4000-8000-000000000004","kind":"audio","language":"de"\#
        ,"mood":5,"needs_review":false,"no_speech":false,"size_bytes":4000012,"status":"transcribed","tags":["walk","fam\"ily","Ünïcode"]\#
        ,"title":"Café, Über, Привет, 東京, 😀👩\#u{200D}👩\#u{200D}👧"\#
        ,"transcript_raw":"café, über, привет, 東京, 😀👩\#u{200D}👩\#u{200D}👧","tz":"Europe/Berlin"\#
        ,"updated_at":"1970-01-01T00:00:01.007Z"},{"created_at":"1970-01-01T00:00:01.000Z","duration_s":1e-07\#
        ,"failure_reason":"It could not be decoded: ","filename":"f5.m4a","id":"e0000000-0000-4000-8000-000000000005"\#
        ,"kind":"text","mood":1,"needs_review":false,"no_speech":false,"status":"failed","tags":[],"transcript_clean":"","tz":"UTC"\#
        ,"updated_at":"2026-03-18T12:00:15.847Z","words_edited":true}],"has_more":true,"next_cursor":"1005"}
        """#,
        #"""
        {"deleted_ids":["e0000000-0000-4000-8000-000000000007"],"entries":[{"content_type":"audio/mp4"\#
        ,"created_at":"2026-03-18T12:00:15.840Z","duration_s":59.999,"filename":"f6.m4a"\#
        ,"id":"e0000000-0000-4000-8000-000000000006","kind":"audio","language":"de","needs_review":false,"no_speech":false,"size_bytes":6000018\#
        ,"status":"pending_upload","tags":["walk","fam\"ily","Ünïcode"],"title":"<script>alert(1)</script> & ' `"\#
        ,"transcript_clean":"<script>alert(1)</script> & ' `","transcript_raw":"<script>alert(1)</script> & ' `"\#
        ,"tz":"Europe/Berlin","updated_at":"2026-03-18T12:00:23.767Z"}],"has_more":false,"next_cursor":"1007"}
        """#,

    ]

    @Test func datesAreTheStoredMillisecondsNotTruncated() throws {
        #expect(RFC3339DateTranscoder.format(milliseconds: 1_773_835_215_840) == "2026-03-18T12:00:15.840Z")
        #expect(RFC3339DateTranscoder.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339DateTranscoder.format(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(RFC3339DateTranscoder.format(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339DateTranscoder.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        // Every millisecond of a stretch of days agrees with the calendar
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        for step in 0..<20_000 {
            let ms = 1_700_000_000_000 + step * 86_399_937
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(ms / 1000)))
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!, ms % 1000)
            #expect(RFC3339DateTranscoder.format(milliseconds: Int64(ms)) == expected)
        }
    }
}
