import Synchronization

/// Holds whoever waits on it until the test opens it: makes two calls overlap without sleeping.
package final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    package init() {}

    /// Returns once the gate is open (at once if it already is).
    package func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// How many are waiting now.
    package var waiterCount: Int { state.withLock { $0.waiting.count } }

    /// Lets every waiter, present and future, through.
    package func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
