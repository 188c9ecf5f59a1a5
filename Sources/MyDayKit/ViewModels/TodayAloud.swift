import Foundation
import MyDaySearch

/// What Siri reads for "Read today's entries": today's entries on this device, oldest first, each with its time, its
/// title and its words as they read now (a recording not transcribed yet says so). Today is each entry's own day, in
/// the time zone it was made in.
public enum TodayAloud {
    /// The words read for at most this many entries; more are counted, not read.
    public static let entriesRead = 5

    /// The text to read for `entries` (any order; those of other days are left out) at `now` in `timeZone`.
    public static func text(
        _ entries: [LocalEntry], now: Date, timeZone: TimeZone = .current, locale: Locale = .current
    ) -> String {
        let today = LocalDay(now, in: timeZone)
        let todays = entries.filter { LocalDay($0.createdAt, in: zone(of: $0)) == today }
            .sorted { $0.createdAt < $1.createdAt }
        guard !todays.isEmpty else { return "You have no entries today yet." }
        var parts = [todays.count == 1 ? "You have one entry today." : "You have \(todays.count) entries today."]
        for entry in todays.prefix(entriesRead) {
            let time = entry.createdAt.formatted(
                Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, timeZone: zone(of: entry)))
            let title = entry.title.flatMap { $0.isEmpty ? nil : ", \($0)" } ?? ""
            parts.append("At \(time)\(title): \(words(of: entry))")
        }
        if todays.count > entriesRead { parts.append("And \(todays.count - entriesRead) more in the app.") }
        return parts.joined(separator: " ")
    }

    private static func zone(of entry: LocalEntry) -> TimeZone { TimeZone(identifier: entry.timeZone) ?? .current }

    /// The entry's words as it reads now (an edit made here is applied at once), or what it is waiting for.
    private static func words(of entry: LocalEntry) -> String {
        let text = (entry.transcriptClean ?? entry.transcriptRaw ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { return text.last.map { ".!?".contains($0) } == true ? text : text + "." }
        if entry.noSpeech { return "a recording without speech." }
        return entry.kind == .audio ? "a recording, not transcribed yet." : "an empty note."
    }
}
