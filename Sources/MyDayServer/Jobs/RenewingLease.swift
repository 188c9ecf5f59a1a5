/// What one renewal of a lease found.
enum LeaseRenewal: Sendable {
    /// Renewed, or a passing failure: the next renewal tries again.
    case keep
    /// Someone else holds it now: the work must stop.
    case lost
    /// The holder is shutting down and hands the work back.
    case handBack
}

/// How work run under a lease ended.
enum LeasedRun<T: Sendable>: Sendable {
    case finished(Result<T, any Error>)
    case lost
    case handedBack
}

/// Runs `body` beside a loop that calls `renew` every `interval` until `body` ends, and cancels `body` as soon as a
/// renewal answers `.lost` or `.handBack`. A job's heartbeat and a `complete` request's claim both run this way.
func runRenewingLease<T: Sendable>(
    every interval: Duration, renew: @escaping @Sendable () async -> LeaseRenewal,
    _ body: @escaping @Sendable () async throws -> T
) async -> LeasedRun<T> {
    await withTaskGroup(of: LeasedRun<T>?.self) { group in
        group.addTask {
            do { return .finished(.success(try await body())) } catch { return .finished(.failure(error)) }
        }
        group.addTask {
            while true {
                do { try await Task.sleep(for: interval) } catch { return nil }
                switch await renew() {
                case .keep: continue
                case .lost: return .lost
                case .handBack: return .handedBack
                }
            }
        }
        for await outcome in group {
            guard let outcome else { continue }
            group.cancelAll()
            return outcome
        }
        // Not reached: the body's task always answers.
        return .finished(.failure(CancellationError()))
    }
}
