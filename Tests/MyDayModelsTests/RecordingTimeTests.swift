import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@Suite struct RecordingTimeTests {
    let auckland = TimeZone(identifier: "Pacific/Auckland")!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    private func date(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    /// A second of a tone written by the real ffmpeg as `ext`, with `metadata` tags, its modification time set to `mtime`.
    private func recording(_ ext: String, name: String = "clip", metadata: [String: String], mtime: Date) async throws -> URL {
        let file = TestFolder.make("recording-time").appendingPathComponent("\(name).\(ext)")
        let tags = metadata.sorted { $0.key < $1.key }.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
        try await TestMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1"] + tags + [file.path])
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: file.path)
        return file
    }

    @Test(arguments: ["m4a", "webm", "ogg", "opus", "flac"])
    func anInstantInTheContainerWinsOverTheNameAndTheModificationTime(_ ext: String) async throws {
        // Given a file whose container says it was recorded at 2026-03-12 10:30 UTC, named for another day and modified
        // on a third
        let file = try await recording(
            ext, name: "20250101 090000", metadata: ["creation_time": "2026-03-12T10:30:00Z"], mtime: date("2024-06-01T12:00:00Z")
        )

        // When its recording time is read in Auckland
        let found = RecordingTime.of(file, in: auckland)

        // Then it is the container's instant, which is 23:30 on 12 March there
        #expect(found == RecordingTime(date: date("2026-03-12T10:30:00Z"), source: .container))
        #expect(RecordingFilename.localTimestamp(of: found.date, in: auckland) == "2026-03-12_23-30-00")
    }

    @Test(arguments: ["mp3", "wav", "ogg", "flac"])
    func aWallClockTagIsReadInTheGivenZone(_ ext: String) async throws {
        // Given a file whose tags say "2026-03-12 23:30" with no zone (ID3's TDRC, RIFF's ICRD, a Vorbis DATE)
        let file = try await recording(ext, metadata: ["date": "2026-03-12 23:30:00"], mtime: date("2024-06-01T12:00:00Z"))

        // When it is read in Auckland and in Berlin, then it is 23:30 on 12 March in each
        let inAuckland = RecordingTime.of(file, in: auckland)
        #expect(inAuckland.source == .container)
        #expect(RecordingFilename.localTimestamp(of: inAuckland.date, in: auckland) == "2026-03-12_23-30-00")
        #expect(
            RecordingFilename.localTimestamp(of: RecordingTime.of(file, in: berlin).date, in: berlin) == "2026-03-12_23-30-00")
    }

    @Test func withoutTagsTheNameGivesTheTimeAndElseTheModificationTime() async throws {
        // Given two files without tags: one named as Voice Memos names recordings, one named "Walk"
        let named = try await recording(
            "m4a", name: "20260312 233000-3A1B2C3D", metadata: [:], mtime: date("2024-06-01T12:00:00Z"))
        let unnamed = try await recording("m4a", name: "Walk", metadata: [:], mtime: date("2026-03-12T10:30:00Z"))

        // Then the first is 23:30 on its named day in Auckland, the second its modification instant
        let fromName = RecordingTime.of(named, in: auckland)
        #expect(fromName.source == .filename)
        #expect(RecordingFilename.localTimestamp(of: fromName.date, in: auckland) == "2026-03-12_23-30-00")
        #expect(RecordingTime.of(unnamed, in: auckland) == RecordingTime(date: date("2026-03-12T10:30:00Z"), source: .modified))
    }

    @Test func aDayWithoutATimeTakesTheTimeOfTheSameDayFromTheModificationTimeElseNoon() {
        // Given a tag naming only 12 March
        let day = TaggedTime.day(CalendarDay(year: 2026, month: 3, day: 12)!)

        // When the file was modified that evening in Berlin, then that is its time; when on another day, noon
        let evening = date("2026-03-12T18:05:00Z")
        #expect(RecordingTime.resolve(tagged: day, name: "a.mp3", modified: evening, in: berlin).date == evening)
        let later = RecordingTime.resolve(tagged: day, name: "a.mp3", modified: date("2026-04-01T08:00:00Z"), in: berlin)
        #expect(RecordingFilename.localTimestamp(of: later.date, in: berlin) == "2026-03-12_12-00-00")
    }

    @Test(arguments: [
        ("20260312 081500-3A1B2C3D.m4a", "2026-03-12 08:15:00"),
        ("20260312 081500.m4a", "2026-03-12 08:15:00"),
        ("2026-03-12_08-15-00_3f2504e0.m4a", "2026-03-12 08:15:00"),
        ("Recording_20260312_081500.mp3", "2026-03-12 08:15:00"),
        ("REC20260312081500.mp3", "2026-03-12 08:15:00"),
        ("2026-03-12 at 08.15.00.wav", "2026-03-12 08:15:00"),
        ("Voice 2026-03-12T08:15.ogg", "2026-03-12 08:15:00"),
        ("2026-03-12.ogg", "2026-03-12"),
        ("diary 2026.03.12 notes.opus", "2026-03-12"),
    ])
    func datesInNamesAreFound(_ name: String, _ expected: String) throws {
        let found = try #require(FilenameTime.parse(name))
        let day = String(format: "%04d-%02d-%02d", found.day.year, found.day.month, found.day.day)
        let time = found.timeOfDay.map { String(format: " %02d:%02d:%02d", $0.hour, $0.minute, $0.second) } ?? ""
        #expect(day + time == expected)
    }

    @Test(arguments: ["New Recording 12.m4a", "track 2026.mp3", "20261345 081500.m4a", "2026-02-30.m4a", "120260312.wav"])
    func namesWithoutAValidDateGiveNone(_ name: String) {
        #expect(FilenameTime.parse(name) == nil)
    }

    @Test(arguments: [
        ("2026-03-12T08:15:00Z", TaggedTime.moment(Date(timeIntervalSince1970: 1_773_303_300))),
        ("2026-03-12T09:15:00+01:00", .moment(Date(timeIntervalSince1970: 1_773_303_300))),
        (
            "2026-03-12 08:15",
            .wallClock(WallClock(day: CalendarDay(year: 2026, month: 3, day: 12)!, time: TimeOfDay(hour: 8, minute: 15)!))
        ),
        (
            "2026:03:12 08:15:00",
            .wallClock(WallClock(day: CalendarDay(year: 2026, month: 3, day: 12)!, time: TimeOfDay(hour: 8, minute: 15)!))
        ),
        ("2026-03-12", .day(CalendarDay(year: 2026, month: 3, day: 12)!)),
    ])
    func tagTextIsReadWithItsZoneWhenItHasOne(_ text: String, _ expected: TaggedTime) {
        #expect(ContainerTags.parseDateText(text) == expected)
    }

    @Test func aFileThatIsNoContainerOrIsCutShortHasNoTaggedTime() throws {
        // Given a text file and the first 40 bytes of an MP4 header, then neither gives a time (and neither crashes)
        let folder = TestFolder.make("recording-time")
        let text = folder.appendingPathComponent("notes.m4a")
        try Data("not audio at all".utf8).write(to: text)
        let cut = folder.appendingPathComponent("cut.m4a")
        try Data([0, 0, 0, 24] + Array("ftypM4A ".utf8) + [0, 0, 2, 0] + [0, 0, 0x10, 0] + Array("moov".utf8) + [0, 0, 0]).write(
            to: cut)
        for file in [text, cut] {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            #expect(ContainerTags.recordingTime(in: FileBytes(handle)) == nil)
        }
    }
}
