import ArgumentParser
import Foundation
import MyDayKit
import MyDayModels
import MyDaySearch

/// `myday day DATE`: one day, in its own words.
struct Day: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One day: a digest in its own words, then its entries.",
        discussion: "DATE is YYYY-MM-DD, or today or yesterday. Each digest line names the entry and where it begins.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The day: YYYY-MM-DD, today or yesterday.") var date: String
    @Option(help: "Your time zone (default: this machine's).") var tz: String?

    func run() async throws {
        let zone = try timeZone(tz)
        let day = try Self.day(date, in: zone)
        let page = try await Workspace(options: server).core.client.day(day.description, timeZone: zone.identifier)
        let output = Output()
        guard !page.entries.isEmpty else {
            output.note("No entries on \(day).")
            return
        }
        var summary = counted(page.entries.count, "entry", "entries")
        if let mood = page.mood { summary += " · mood \(mood)/5" }
        if !page.tags.isEmpty { summary += " · \(page.tags.joined(separator: ", "))" }
        output.line("\(day) — \(summary)")
        output.line("")
        for sentence in page.digest {
            let at = sentence.start.map { " at \(formattedDuration($0))" } ?? ""
            output.line("  “\(sentence.text)” (\(sentence.entryID.short)\(at))")
        }
        output.line("")
        for entry in page.entries {
            let time = entry.createdAt.formatted(
                Date.FormatStyle(date: .omitted, time: .shortened, timeZone: TimeZone(identifier: entry.timeZone) ?? zone))
            let words = entry.title ?? entry.transcriptClean.map { String($0.prefix(60)) } ?? ""
            output.line("\(entry.id.short)  \(time)  \(words)")
        }
    }

    /// `YYYY-MM-DD`, `today` or `yesterday` in `zone`; anything else is refused with the reason.
    static func day(_ text: String, in zone: TimeZone, now: Date = Date()) throws -> LocalDay {
        switch text.lowercased() {
        case "today": return LocalDay(now, in: zone)
        case "yesterday":
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return LocalDay(calendar.date(byAdding: .day, value: -1, to: now) ?? now, in: zone)
        default:
            guard let day = LocalDay(iso: text) else {
                throw ValidationError("'\(text)' is not a day: write it as YYYY-MM-DD (2026-03-14), today or yesterday.")
            }
            return day
        }
    }
}
