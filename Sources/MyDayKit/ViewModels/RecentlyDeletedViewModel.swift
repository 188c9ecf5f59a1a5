import Foundation
import Observation

/// Recently deleted: the entries deleted in the last 30 days, each with how long it stays, to bring back (it returns
/// to the Library at the next sync) or delete for good now.
@MainActor
@Observable
public final class RecentlyDeletedViewModel {
    public private(set) var entries: [DeletedEntry] = []
    public private(set) var errorMessage: String?
    /// What the last action did, for the screen to say ("Brought back", "Deleted for good"); nil once another began.
    public private(set) var notice: String?

    private let core: ClientCore
    private let now: @Sendable () -> Date
    private let locale: Locale

    public init(core: ClientCore, now: @escaping @Sendable () -> Date = Date.init, locale: Locale = .current) {
        self.core = core
        self.now = now
        self.locale = locale
    }

    public func load() async {
        notice = nil
        do {
            entries = try await core.client.recentlyDeleted()
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Brings the entry back, then syncs so the Library has it again.
    public func restore(_ deleted: DeletedEntry) async {
        notice = nil
        do {
            _ = try await core.client.restoreEntry(deleted.entry.id)
            entries.removeAll { $0.entry.id == deleted.entry.id }
            notice = "Brought back."
            errorMessage = nil
            _ = try? await core.syncEngine.sync()
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Deletes the entry for good: nothing of it can be brought back.
    public func erase(_ deleted: DeletedEntry) async {
        notice = nil
        do {
            try await core.client.eraseEntry(deleted.entry.id)
            entries.removeAll { $0.entry.id == deleted.entry.id }
            notice = "Deleted for good."
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// When the entry was made, in its own time zone: "Friday, 1 May 2026 at 14:05".
    public func when(_ deleted: DeletedEntry) -> String {
        let entry = deleted.entry
        return LibraryViewModel.format(entry.createdAt, TimeZone(identifier: entry.timeZone) ?? .current, .moment, locale: locale)
    }

    /// The entry's words, as the Library names it.
    public func title(_ deleted: DeletedEntry) -> String {
        LibraryViewModel.title(of: LocalEntry(deleted.entry, audioPath: nil))
    }

    /// "Deleted for good in 12 days", "… tomorrow", "… today".
    public func timeLeft(_ deleted: DeletedEntry) -> String {
        let days = Int((deleted.purgeAt.timeIntervalSince(now()) / 86_400).rounded(.down))
        switch days {
        case ..<1: return "Deleted for good today"
        case 1: return "Deleted for good tomorrow"
        default: return "Deleted for good in \(days) days"
        }
    }
}
