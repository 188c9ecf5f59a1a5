import Foundation
import Synchronization

/// Wakes this process's idle job slots when a job it queued has committed, so a recording's transcription starts at
/// once instead of at the next poll. Only a hint: slots still poll, which is how jobs queued by other processes and
/// retries that come due are found.
final class JobDoorbell: Sendable {
    private let waiters = Mutex<[UUID: CheckedContinuation<Void, Never>]>([:])

    /// How many slots are waiting for the bell now.
    var waitingSlots: Int { waiters.withLock { $0.count } }

    /// Wakes every slot waiting now.
    func ring() {
        let waiting = waiters.withLock { waiters in
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns when the bell rings, `timeout` has passed, or the task is cancelled, whichever comes first; at once
    /// when `unless` holds. Whoever makes `unless` true and then rings cannot be missed.
    func wait(atMost timeout: Duration, unless: @escaping @Sendable () -> Bool = { false }) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.rung(unless: unless) }
            await group.next()
            group.cancelAll()
        }
    }

    private func rung(unless: @Sendable () -> Bool) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock `ring` takes, so a ring that came before is seen here, and one after finds us.
                let done = waiters.withLock { waiters in
                    if Task.isCancelled || unless() { return true }
                    waiters[id] = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            waiters.withLock { $0.removeValue(forKey: id) }?.resume()
        }
    }
}
