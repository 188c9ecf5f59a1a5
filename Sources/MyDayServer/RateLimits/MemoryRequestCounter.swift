import Synchronization

/// Request counts of this process, for a single API node.
final class MemoryRequestCounter: RequestCounter {
    private struct State {
        var schedules: [String: Int] = [:]
        var lastPrune = 0
    }
    private let state = Mutex(State())
    /// Keys beyond this many make the limiter forget those whose schedule has passed (at most every 10 s).
    private let pruneThreshold: Int
    /// Microseconds since 1970.
    private let now: @Sendable () -> Int

    init(pruneThreshold: Int = 10_000, now: @escaping @Sendable () -> Int = RateLimit.microsecondsNow) {
        self.pruneThreshold = pruneThreshold
        self.now = now
    }

    func consume(_ key: String, limit: RateLimit) async throws -> RateLimitDecision {
        let now = self.now()
        return state.withLock { state in
            if state.schedules.count >= pruneThreshold, now - state.lastPrune >= 10_000_000 {
                state.schedules = state.schedules.filter { $0.value > now }
                state.lastPrune = now
            }
            let (decision, newTAT) = limit.decide(tat: state.schedules[key], now: now)
            if let newTAT { state.schedules[key] = newTAT }
            return decision
        }
    }

    func giveBack(_ key: String, limit: RateLimit) async throws {
        state.withLock { state in state.schedules[key] = state.schedules[key].map { $0 - limit.intervalMicros } }
    }
}
