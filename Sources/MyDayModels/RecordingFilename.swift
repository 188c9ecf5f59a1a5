import Foundation

/// The file name of a diary entry: `YYYY-MM-DD_HH-mm-ss_<uuid8>.<ext>`, in the recording's own time zone.
///
/// Stable (a pure function of the entry), sortable within one time zone, and unique thanks to the
/// first eight hex digits of the entry id, which also separate the two 01:30s of a DST fall-back.
public enum RecordingFilename {
    /// The name for an entry recorded at `start` in `timeZone`, with the given extension (no dot).
    public static func make(id: UUID, start: Date, timeZone: TimeZone, fileExtension: String = "m4a") -> String {
        "\(localTimestamp(of: start, in: timeZone))_\(uuid8(id)).\(fileExtension)"
    }

    /// `YYYY-MM-DD_HH-mm-ss` of `date` as a wall clock in `timeZone` showed it.
    public static func localTimestamp(of date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02d_%02d-%02d-%02d",
            c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0
        )
    }

    /// The first eight hex digits of the id, lowercased.
    public static func uuid8(_ id: UUID) -> String {
        String(id.uuidString.lowercased().prefix(8))
    }
}
