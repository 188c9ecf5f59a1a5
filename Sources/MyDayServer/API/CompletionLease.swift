import Foundation
import Synchronization

/// Until when one `complete` request holds its entry's completion claim, renewed while its check runs.
final class CompletionLease: Sendable {
    private let held: Mutex<Int>

    init(until: Int) { held = Mutex(until) }

    /// The claim's current end (ms since 1970).
    var until: Int { held.withLock { $0 } }

    /// Renews the claim every third of `lease` until cancelled; returns once it is lost: another request took it, or the
    /// database did not answer until it ran out.
    func keepRenewing(id: UUID, in entries: EntryStore, lease: Int) async throws {
        while true {
            try await Task.sleep(for: .milliseconds(lease / 3))
            let current = until
            let renewed = StoredTime.now() + lease
            do {
                guard try await entries.renewCompletion(id: id, held: current, until: renewed) else { return }
                held.withLock { $0 = renewed }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if StoredTime.now() >= current { return }
            }
        }
    }
}
