import ArgumentParser
import Configuration
import Foundation
import Hummingbird
import Logging
import MyDayServer
import ServiceLifecycle

/// `myday-server`: the My Day API server. Settings come from `MYDAY_*` environment variables.
@main
struct MyDayServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "myday-server",
        abstract: "The My Day API server.",
        discussion: "Settings come from MYDAY_* environment variables; see the README.",
        subcommands: [Serve.self, Worker.self, Migrate.self, MigrateBlobs.self, Transcribe.self],
        defaultSubcommand: Serve.self
    )
}

/// Settings and logger shared by the subcommands.
enum CommandSettings {
    static func load() throws -> (ServerConfiguration, Logger) {
        // Every file and folder the server makes (the database, its log, audio, archives, mail) is its owner's alone.
        umask(0o077)
        let configuration = try ServerConfiguration(reader: ConfigReader(provider: EnvironmentVariablesProvider()))
        var logger = Logger(label: "myday")
        logger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? .info
        return (configuration, logger)
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the API (the default).")

    func run() async throws {
        let (configuration, logger) = try CommandSettings.load()
        let app = try await buildApplication(configuration: configuration, logger: logger) { port in
            logger.info("My Day is listening", metadata: ["url": "http://\(configuration.host):\(port)"])
        }
        try await app.runService()
    }
}

struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run background jobs only, without serving the API.")

    func run() async throws {
        let (configuration, logger) = try CommandSettings.load()
        let services = try await buildWorker(configuration: configuration, logger: logger)
        try await ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date, then exit.")

    func run() async throws {
        let (configuration, logger) = try CommandSettings.load()
        try await DatabaseDriverFactory.withDriver(configuration: configuration, logger: logger) { driver in
            let applied = try await Migrator.migrate(driver)
            let version = try await Migrator.currentVersion(driver)
            print(
                applied.isEmpty
                    ? "Schema is up to date at version \(version)." : "Applied \(applied); schema is at version \(version).")
        }
    }
}

struct MigrateBlobs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-blobs",
        abstract: "Copy the audio and export archives of the data directory into the bucket of MYDAY_S3_*.",
        discussion: """
            Blobs already in the bucket with the same size and SHA-256 are skipped, so running it again carries on \
            where it stopped. Stop the server first (or run it again after the last upload), then start it with MYDAY_S3_*.
            """)

    @Option(help: "The folder of the disk blob store (default: the data directory's blobs).")
    var from: String?

    func run() async throws {
        let (configuration, _) = try CommandSettings.load()
        let migration = try BlobMigration(configuration: configuration, from: from.map { URL(fileURLWithPath: $0) })
        let report = try await migration.run { print($0) }
        print("Done: \(report).")
    }
}

struct Transcribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Transcribe an audio file with the configured engines and print the result as JSON.")

    @Argument(help: "An audio file (m4a, wav, webm, ogg, mp3).")
    var file: String

    func run() async throws {
        let (configuration, logger) = try CommandSettings.load()
        let transcript = try await transcribeFile(URL(fileURLWithPath: file), configuration: configuration, logger: logger)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(transcript), as: UTF8.self))
    }
}
