import ArgumentParser
import Foundation
import MyDayKit

/// `myday export`: a zip of a date range, with a download link.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Export a date range (audio and transcripts) as a zip.")

    @OptionGroup var server: ServerOptions
    @Option(help: "First day, YYYY-MM-DD.") var from: String
    @Option(help: "Last day, YYYY-MM-DD.") var to: String
    @Option(help: "The time zone the days are in (default: this machine's).") var tz: String?
    @Option(help: "Seconds to wait for the archive (0: do not wait).") var wait: Int = 600
    @OptionGroup var password: PasswordOptions

    func run() async throws {
        let workspace = try Workspace(options: server)
        let zone = try timeZone(tz)
        let client = workspace.core.client
        var export: ExportStatus
        do {
            export = try await client.requestExport(from: from, to: to, timeZone: zone.identifier, proof: nil)
        } catch MyDayClientError.server(403, "reauthentication_needed", _, _) {
            // An export holds the whole diary of its days: without a sign-in in the last minutes, the password again.
            export = try await client.requestExport(
                from: from, to: to, timeZone: zone.identifier, proof: .password(try password.resolve()))
        }
        Output().note("Export \(export.id.uuidString.lowercased()) \(export.state.rawValue)…")
        if let address = export.mailedTo { Output().note("The link will also be mailed to \(address).") }
        let deadline = ContinuousClock.now + .seconds(wait)
        while export.state == .queued || export.state == .building, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
            export = try await workspace.core.client.export(export.id)
        }
        switch export.state {
        case .ready:
            Output().line(export.downloadURL?.absoluteString ?? "")
            Output().note(
                "\(export.entries ?? 0) entries, \(ByteCountFormatter.string(fromByteCount: Int64(export.sizeBytes ?? 0), countStyle: .file))."
            )
        case .queued, .building: Output().line("Export \(export.id.uuidString.lowercased()) is still \(export.state.rawValue).")
        case .failed, .expired: throw CLIError("Export \(export.state.rawValue): \(export.failureReason ?? "no reason given").")
        }
    }
}

/// `myday delete-export ID`: an export and its archive go; the link stops working.
struct DeleteExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete an export and its archive; its link stops working.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The export's id, as `myday export` printed it.") var id: String

    func run() async throws {
        let workspace = try Workspace(options: server)
        guard let id = UUID(uuidString: id) else { throw ValidationError("'\(id)' is not an export id.") }
        try await workspace.core.client.deleteExport(id)
        Output().line("Export deleted.")
    }
}

/// `myday stats`: the Profile's figures.
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Totals, streaks and months.")

    @OptionGroup var server: ServerOptions
    @Option(help: "The time zone that says which day is today (default: this machine's).") var tz: String?

    func run() async throws {
        let workspace = try Workspace(options: server)
        let stats = try await workspace.core.client.stats(timeZone: try timeZone(tz).identifier)
        let output = Output()
        output.line("entries:        \(stats.totalEntries)")
        output.line("recorded:       \(formattedDuration(stats.totalDuration))")
        output.line("words:          \(stats.words)")
        output.line("current streak: \(stats.currentStreakDays) days")
        output.line("longest streak: \(stats.longestStreakDays) days")
        output.line(
            "storage:        \(ByteCountFormatter.string(fromByteCount: stats.storageUsedBytes, countStyle: .file)) of "
                + "\(ByteCountFormatter.string(fromByteCount: stats.storageQuotaBytes, countStyle: .file))")
        for month in stats.months {
            output.line("  \(month.month)  \(month.entries) entries  \(formattedDuration(month.duration))")
        }
    }
}

/// `myday status`: who is signed in, and what has not reached the server, and why.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the session and the uploads that wait, with their reasons.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let workspace = try Workspace(options: server)
        let output = Output()
        let account = try await workspace.core.client.session(of: workspace)
        output.line("server:  \(workspace.serverURL.absoluteString)")
        output.line("account: \(account?.email ?? "not signed in")")
        let pending = try workspace.core.store.pendingUploads()
        output.line("waiting: \(pending.count)")
        for (upload, entry) in pending {
            let why =
                entry.state == .uploadFailed
                ? "refused: \(entry.failureReason ?? "")"
                : upload.lastError.map {
                    "\($0) (attempt \(upload.attempts), next \(upload.nextAttemptAt.formatted(date: .omitted, time: .standard)))"
                }
                    ?? "not tried yet"
            output.line("  \(entry.id.short)  \(entry.filename)  \(why)")
        }
    }
}

extension MyDayClient {
    /// The signed-in account as stored on this device, without asking the server.
    fileprivate func session(of workspace: Workspace) async throws -> Account? {
        guard let live = self as? LiveMyDayClient else { return nil }
        return try await live.session.credentials()?.account
    }
}
