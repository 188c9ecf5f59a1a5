import Logging
import ServiceLifecycle

/// Runs `ChangeFeed.poll` once an interval while the server runs, and ends every stream when it stops.
struct ChangeFeedService: Service {
    let feed: ChangeFeed
    var interval: Duration = .seconds(1)
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await feed.poll()
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("the change feed could not read the database; it tries again", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
        await feed.finishAll()
    }
}
