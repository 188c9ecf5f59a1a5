import Logging
import ServiceLifecycle

/// Builds the background worker process: it owns a database connection and runs until told to stop.
///
/// No job kind exists yet: uploaded entries wait in `uploaded` (see `EntryPipeline`). The
/// transcription queue will be run from here, so API nodes and worker nodes scale apart.
public func buildWorker(configuration: ServerConfiguration, logger: Logger) async throws -> some Service {
    let driver = try await DatabaseDriverFactory.open(configuration: configuration, logger: logger)
    let version: Int
    do {
        version = try await Migrator.currentVersion(driver)
    } catch {
        await driver.shutdown()
        throw ConfigurationError("the database has no My Day schema; run `myday-server migrate` first")
    }
    logger.info("worker ready", metadata: ["schema": "\(version)"])
    return DatabaseService(driver: driver)
}
