import Logging
import ServiceLifecycle

/// Runs `round` now and then every `interval` until a graceful shutdown (which also cancels a round under way); a round
/// that fails is logged as "`name` round failed" and the next one tries again.
func runRounds(
    every interval: Duration, name: String, logger: Logger, _ round: @escaping @Sendable () async throws -> Void
) async {
    try? await cancelWhenGracefulShutdown {
        while true {
            do {
                try await round()
            } catch is CancellationError {
                return
            } catch {
                logger.error("\(name) round failed; the next one tries again", metadata: ["error": "\(error)"])
            }
            try await Task.sleep(for: interval)
        }
    }
}
