import Foundation
import MyDayModels
import Testing

@Suite struct RecordingFilenameTests {
    let id = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!

    private func date(_ iso: String) -> Date {
        try! Date(iso, strategy: .iso8601)
    }

    @Test func usesTheRecordingsOwnTimeZone() {
        // Given one instant, when it is named in two zones, then each shows its own wall clock.
        let instant = date("2026-06-30T22:15:07Z")
        #expect(
            RecordingFilename.make(id: id, start: instant, timeZone: TimeZone(identifier: "Europe/Paris")!)
                == "2026-07-01_00-15-07_3f2504e0.m4a")
        #expect(
            RecordingFilename.make(id: id, start: instant, timeZone: TimeZone(identifier: "America/Los_Angeles")!)
                == "2026-06-30_15-15-07_3f2504e0.m4a")
    }

    @Test func springForwardSkipsTheMissingHour() {
        // Given New York's 2026-03-08 change at 02:00 local, when a recording starts one second
        // before and one at the change, then the names jump from 01:59:59 to 03:00:00.
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(RecordingFilename.localTimestamp(of: date("2026-03-08T06:59:59Z"), in: newYork) == "2026-03-08_01-59-59")
        #expect(RecordingFilename.localTimestamp(of: date("2026-03-08T07:00:00Z"), in: newYork) == "2026-03-08_03-00-00")
    }

    @Test func fallBackRepeatsTheHourAndTheIdKeepsNamesUnique() {
        // Given the two 01:30s of New York's 2026-11-01 fall-back, when two entries are named,
        // then the timestamps are equal and the names still differ by their uuid8.
        let newYork = TimeZone(identifier: "America/New_York")!
        let first = date("2026-11-01T05:30:00Z")
        let second = date("2026-11-01T06:30:00Z")
        #expect(RecordingFilename.localTimestamp(of: first, in: newYork) == "2026-11-01_01-30-00")
        #expect(RecordingFilename.localTimestamp(of: second, in: newYork) == "2026-11-01_01-30-00")
        let otherID = UUID(uuidString: "A1B2C3D4-0000-0000-0000-000000000000")!
        #expect(
            RecordingFilename.make(id: id, start: first, timeZone: newYork)
                != RecordingFilename.make(id: otherID, start: second, timeZone: newYork))
    }

    @Test func halfHourZonesAndTheDateLine() {
        #expect(
            RecordingFilename.localTimestamp(of: date("2026-01-01T00:00:00Z"), in: TimeZone(identifier: "Asia/Kolkata")!)
                == "2026-01-01_05-30-00")
        #expect(
            RecordingFilename.localTimestamp(of: date("2026-01-01T00:00:00Z"), in: TimeZone(identifier: "Pacific/Kiritimati")!)
                == "2026-01-01_14-00-00")
        #expect(
            RecordingFilename.localTimestamp(of: date("2026-01-01T00:00:00Z"), in: TimeZone(identifier: "Pacific/Pago_Pago")!)
                == "2025-12-31_13-00-00")
    }

    @Test func namesSortInRecordingOrderWithinAZone() {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let starts = stride(from: 0.0, to: 86_400 * 3, by: 3_607).map { Date(timeIntervalSince1970: 1_790_000_000 + $0) }
        let names = starts.map { RecordingFilename.make(id: UUID(), start: $0, timeZone: zone) }
        #expect(names == names.sorted())
    }

    @Test func extensionFollowsTheContainer() {
        let name = RecordingFilename.make(
            id: id, start: date("2026-05-01T10:00:00Z"), timeZone: TimeZone(identifier: "UTC")!,
            fileExtension: AudioContainer.webm.fileExtension)
        #expect(name == "2026-05-01_10-00-00_3f2504e0.webm")
        #expect(AudioContainer(contentType: "audio/webm;codecs=opus") == .webm)
        #expect(AudioContainer(contentType: "audio/x-m4a") == .mp4)
        #expect(AudioContainer(contentType: "text/plain") == nil)
    }
}
