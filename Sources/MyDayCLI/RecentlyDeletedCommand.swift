import ArgumentParser
import Foundation
import MyDayKit

/// `myday deleted`: the entries deleted in the last 30 days, to bring back or delete for good.
struct RecentlyDeletedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deleted",
        abstract: "List the entries deleted in the last 30 days; bring one back or delete it for good.")

    @OptionGroup var server: ServerOptions
    @Option(help: "Bring back the entry with this id (or its first characters).") var restore: String?
    @Option(help: "Delete the entry with this id (or its first characters) for good, now.") var erase: String?

    func run() async throws {
        let workspace = try Workspace(options: server)
        let client = workspace.core.client
        let deleted = try await client.recentlyDeleted()
        if let restore {
            let entry = try Self.match(restore, in: deleted)
            _ = try await client.restoreEntry(entry.entry.id)
            _ = try? await workspace.core.syncEngine.sync()
            Output().line("Brought back \(entry.entry.id.short).")
            return
        }
        if let erase {
            let entry = try Self.match(erase, in: deleted)
            try await client.eraseEntry(entry.entry.id)
            Output().line("Deleted \(entry.entry.id.short) for good.")
            return
        }
        guard !deleted.isEmpty else {
            Output().line("Nothing was deleted in the last 30 days.")
            return
        }
        for item in deleted {
            let purge = item.purgeAt.formatted(.iso8601.year().month().day())
            let words = (item.entry.title ?? item.entry.transcriptClean ?? "").prefix(60)
            Output().line("\(item.entry.id.short)  until \(purge)  \(words)")
        }
    }

    private static func match(_ prefix: String, in deleted: [DeletedEntry]) throws -> DeletedEntry {
        let wanted = prefix.lowercased()
        let found = deleted.filter { $0.entry.id.uuidString.lowercased().hasPrefix(wanted) }
        guard let entry = found.first, !wanted.isEmpty else {
            throw ValidationError("No entry deleted in the last 30 days starts with '\(prefix)'. `myday deleted` lists them.")
        }
        guard found.count == 1 else { throw ValidationError("'\(prefix)' starts \(found.count) ids; give more characters.") }
        return entry
    }
}
