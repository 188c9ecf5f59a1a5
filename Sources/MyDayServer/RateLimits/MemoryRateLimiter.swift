import Synchronization

/// Request counts of this process, for a single API node.
final class MemoryRateLimiter: RateLimiter {
    private let schedules = Mutex<[String: Int]>([:])
    /// Keys beyond this many make the limiter forget those whose schedule has passed.
    private let pruneThreshold: Int

    init(pruneThreshold: Int = 10_000) { self.pruneThreshold = pruneThreshold }

    func consume(_ key: String, limit: RateLimit) async throws -> RateLimitDecision {
        let now = StoredTime.now()
        return schedules.withLock { schedules in
            if schedules.count >= pruneThreshold { schedules = schedules.filter { $0.value > now } }
            let (decision, newTAT) = limit.decide(tat: schedules[key], now: now)
            if let newTAT { schedules[key] = newTAT }
            return decision
        }
    }
}
