import Foundation
import Synchronization

/// Until when one `complete` request holds its entry's completion claim, renewed while its check runs.
final class CompletionLease: Sendable {
    private let held: Mutex<Int>

    init(until: Int) { held = Mutex(until) }

    /// The claim's current end (ms since 1970).
    var until: Int { held.withLock { $0 } }

    /// Extends the claim by `lease` ms from now. It is lost when another request took it, or when the database did not
    /// answer until it ran out.
    func renew(id: UUID, in entries: EntryStore, lease: Int) async -> LeaseRenewal {
        let current = until
        let renewed = StoredTime.now() + lease
        do {
            guard try await entries.renewCompletion(id: id, held: current, until: renewed) else { return .lost }
            held.withLock { $0 = renewed }
            return .keep
        } catch {
            return StoredTime.now() >= current ? .lost : .keep
        }
    }
}
