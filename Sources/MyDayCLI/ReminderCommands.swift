import ArgumentParser
import Foundation
import MyDayKit

/// `myday reminder`: the daily reminder, by mail, when a day has no entry yet.
struct ReminderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminder",
        abstract: "A daily reminder when a day has no entry yet: show it, set it, or turn it off.",
        subcommands: [ReminderShow.self, ReminderSet.self, ReminderOff.self, ReminderBrowsers.self],
        defaultSubcommand: ReminderShow.self)

    static func describe(_ reminder: ReminderSettings?) -> String {
        guard let reminder else { return "No reminder is set. Set one with: myday reminder set 21:00" }
        let days =
            reminder.days.count == 7 ? "every day" : reminder.days.sorted().map(\.rawValue).joined(separator: ", ")
        return "\(reminder.time) \(reminder.timeZone), \(days)\(reminder.email ? ", by mail too" : "")"
    }
}

/// `myday reminder show`.
struct ReminderShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the reminder.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        Output().line(ReminderCommand.describe(try await Workspace(options: server).core.client.reminder()))
    }
}

/// `myday reminder set HH:MM`.
struct ReminderSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Remind me at a time of day.",
        discussion: "Mail goes to your confirmed address only, at most once a day; each mail has a link that stops it.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The time, HH:MM (24-hour).") var time: String
    @Option(help: "The days, e.g. mon,tue,fri (default: every day).") var days: String?
    @Flag(help: "Send it by mail.") var email = false
    @Option(help: "Your time zone (default: this machine's).") var tz: String?

    func run() async throws {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard time.count == 5, parts.count == 2, let hour = parts[0], let minute = parts[1], (0...23).contains(hour),
            (0...59).contains(minute)
        else { throw ValidationError("'\(time)' is not a time of day: write it as HH:MM, e.g. 21:00.") }
        var chosen = Set(ReminderSettings.Weekday.allCases)
        if let days {
            let names = days.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let unknown = names.filter { ReminderSettings.Weekday(rawValue: $0) == nil }
            guard unknown.isEmpty, !names.isEmpty else {
                throw ValidationError("Name days as mon, tue, wed, thu, fri, sat, sun (not \(unknown.joined(separator: ", "))).")
            }
            chosen = Set(names.compactMap(ReminderSettings.Weekday.init(rawValue:)))
        }
        let zone = try timeZone(tz)
        let reminder = try await Workspace(options: server).core.client.setReminder(
            ReminderSettings(hour: hour, minute: minute, timeZone: zone.identifier, days: chosen, email: email))
        Output().line("Reminder: " + ReminderCommand.describe(reminder))
    }
}

/// `myday reminder off`.
struct ReminderOff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "off", abstract: "Turn the reminder off.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await Workspace(options: server).core.client.deleteReminder()
        Output().line("No reminder now.")
    }
}

/// `myday reminder browsers [--stop ID]`: the browsers the reminder goes to as a notification (turned on in the web app).
struct ReminderBrowsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browsers", abstract: "List the browsers notified of the reminder, or stop one.")

    @OptionGroup var server: ServerOptions
    @Option(help: "Stop notifying the browser with this id.") var stop: String?

    func run() async throws {
        let client = try Workspace(options: server).core.client
        if let stop {
            guard let id = UUID(uuidString: stop) else { throw ValidationError("'\(stop)' is not a browser's id.") }
            try await client.stopNotifying(id)
            Output().line("That browser gets no more notifications.")
            return
        }
        let browsers = try await client.notifiedBrowsers()
        guard !browsers.isEmpty else {
            Output().line("No browser is notified. Turn notifications on in the web app's Profile, under the reminder.")
            return
        }
        for browser in browsers {
            let since = browser.since.formatted(.iso8601.year().month().day())
            Output().line("\(browser.id.uuidString.lowercased())  \(browser.maker), since \(since)")
        }
    }
}
