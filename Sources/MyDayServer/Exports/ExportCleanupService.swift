import Foundation
import Logging
import ServiceLifecycle

/// Deletes export archives whose link has expired, once an interval, in every process that runs jobs.
/// The export stays listed, as `expired`; a user who still wants the days exports them again.
struct ExportCleanupService: Service {
    let exports: ExportStore
    let blobs: any BlobStore
    var interval: Duration = .seconds(3600)
    let logger: Logger

    func run() async throws {
        // A graceful shutdown cancels the wait between rounds (and a round under way).
        try? await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await cleanUp()
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("expired exports could not be cleaned up", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Removes the archives of exports whose links expired before `now`; answers how many.
    @discardableResult
    func cleanUp(now: Date = Date()) async throws -> Int {
        let expired = try await exports.expiredArchives(now: now)
        for export in expired {
            if let key = export.blobKey { try await blobs.delete(key: key) }
            try await exports.markArchiveDeleted(id: export.id)
        }
        if !expired.isEmpty { logger.info("expired export archives deleted", metadata: ["count": "\(expired.count)"]) }
        return expired.count
    }
}
