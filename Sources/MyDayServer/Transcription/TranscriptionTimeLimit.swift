import Foundation

/// How long a transcription job may run: a fixed allowance plus a share of its audio's length, so a stuck engine
/// or a pathological file cannot hold a worker slot for ever, while a three-hour recording still has its hours.
struct TranscriptionTimeLimit: Sendable {
    var base: Duration = .seconds(600)
    var perAudioSecond: Duration = .seconds(4)

    func forAudio(seconds: Double) -> Duration { base + perAudioSecond * max(seconds, 0) }
}

/// Thrown by `withTimeLimit` when the work did not finish in time (it has been cancelled).
struct TimeLimitExceeded: Error {}

/// Runs `work`, cancelling it and throwing `TimeLimitExceeded` if it has not finished within `limit`.
func withTimeLimit<Value: Sendable>(
    _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimeLimitExceeded() }
        return value
    }
}
