import ArgumentParser
import Foundation
import MyDayKit
import MyDayModels
import MyDaySearch

/// `myday on-this-day [DATE]`: the entries of the same date a week, a month and each year before.
struct OnThisDayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "on-this-day",
        abstract: "The entries of the same date a week, a month and each year before.",
        discussion: "DATE is YYYY-MM-DD, today or yesterday (default: today). `myday day DATE` opens each day.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The day to look back from: YYYY-MM-DD, today or yesterday.") var date = "today"
    @Option(help: "Your time zone (default: this machine's).") var tz: String?

    func run() async throws {
        let zone = try timeZone(tz)
        let day = try Day.day(date, in: zone)
        let days = try await Workspace(options: server).core.client.onThisDay(day.description, timeZone: zone.identifier)
        let output = Output()
        guard !days.isEmpty else {
            output.note("Nothing on this day before \(day): no entries a week, a month or a year before.")
            return
        }
        for (index, past) in days.enumerated() {
            if index > 0 { output.line("") }
            let memory = OnThisDayViewModel.memory(past)
            output.line("\(past.date) — \(memory.heading)")
            for entry in past.entries {
                let words = entry.title ?? entry.transcriptClean.map { String($0.prefix(60)) } ?? ""
                output.line("  \(entry.id.short)  \(words)")
            }
        }
    }
}

/// `myday insights`: each day's figures of a span, the streaks, and what the entries mention most.
struct InsightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insights",
        abstract: "Streaks, time recorded and what your entries mention most, over the last year or a span you name.")

    @OptionGroup var server: ServerOptions
    @Option(help: "The first day: YYYY-MM-DD (default: 364 days before --to).") var from: String?
    @Option(help: "The last day: YYYY-MM-DD, today or yesterday (default: today).") var to: String?
    @Option(help: "Your time zone (default: this machine's).") var tz: String?
    @Flag(help: "Also list every day with entries.") var days = false

    func run() async throws {
        let zone = try timeZone(tz)
        let first = try from.map { try Day.day($0, in: zone).description }
        let last = try to.map { try Day.day($0, in: zone).description }
        let insights = try await Workspace(options: server).core.client.insights(from: first, to: last, timeZone: zone.identifier)
        let output = Output()
        let entries = insights.days.reduce(0) { $0 + $1.entries }
        let minutes = Int((insights.days.reduce(0) { $0 + $1.seconds } / 60).rounded())
        let words = insights.days.reduce(0) { $0 + $1.words }
        output.line("\(insights.from) to \(insights.to)")
        output.line(
            "\(counted(entries, "entry", "entries")) on \(counted(insights.days.count, "day", "days"))"
                + " · \(minutes) min recorded · \(words) words")
        output.line("Streak: \(insights.currentStreak) days now, \(insights.longestStreak) at most")
        for (name, mentions) in [("People", insights.people), ("Places", insights.places), ("Topics", insights.topics)]
        where !mentions.isEmpty {
            output.line("\(name): " + mentions.map { "\($0.text) (\($0.count))" }.joined(separator: ", "))
        }
        guard days else { return }
        output.line("")
        for day in insights.days {
            let mood = day.mood.map { "  mood \($0)/5" } ?? ""
            output.line(
                "\(day.date)  \(day.entries) \(day.entries == 1 ? "entry" : "entries")  "
                    + "\(formattedDuration(day.seconds))  \(day.words) words\(mood)")
        }
    }
}

/// `myday question`: today's question about something said in the last days, in the person's own words.
struct QuestionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "question", abstract: "A question about something you said in the last three days, if there is one.")

    @OptionGroup var server: ServerOptions
    @Option(help: "Your time zone (default: this machine's).") var tz: String?

    func run() async throws {
        let zone = try timeZone(tz)
        guard let question = try await Workspace(options: server).core.client.question(timeZone: zone.identifier) else {
            Output().note("Nothing to ask today.")
            return
        }
        Output().line("\(question.text) (from \(question.date), \(question.entryID.short))")
    }
}
