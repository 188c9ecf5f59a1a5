import Foundation

/// The real `myday-server` executable, started as a child process, for tests that kill or signal it.
public final class ServerProcess: @unchecked Sendable {
    public let process = Process()
    public let port: Int
    private let output: Pipe

    /// Starts `myday-server <command>` with `environment` and waits until it listens (`serve`) or works (`worker`).
    public init(dataDirectory: URL, environment: [String: String] = [:], command: String = "serve") async throws {
        let executable = try Self.executable()
        process.executableURL = executable
        process.arguments = [command]
        process.environment = ProcessInfo.processInfo.environment.merging(
            [
                "MYDAY_PORT": "0", "MYDAY_DATA_DIR": dataDirectory.path, "MYDAY_LOG_LEVEL": "info",
                "MYDAY_SECRET": "process-test-secret-that-is-long-enough",
            ].merging(environment) { $1 }
        ) { $1 }
        output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        port = try await Self.readiness(of: command, from: output.fileHandleForReading, deadline: .now + .seconds(30))
        // Keep draining the logs, so the server never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
    }

    /// The server's base URL.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Whether the server holds a file open under `blobs/tmp/` (an upload being written).
    public func isWritingAnUpload() -> Bool {
        let folder = "/proc/\(process.processIdentifier)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return descriptors.contains { descriptor in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(descriptor)")) ?? ""
            return target.contains("/blobs/tmp")
        }
    }

    public func kill(signal: Int32 = SIGKILL) { Foundation.kill(process.processIdentifier, signal) }

    /// Waits for the process to end and answers its exit status.
    public func waitForExit(deadline: ContinuousClock.Instant = .now + .seconds(30)) async throws -> Int32 {
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw ServerProcessError.stillRunning }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }

    /// An executable product of the same build as the running tests, such as `myday-server` or `myday`.
    public static func executable(named name: String = "myday-server") throws -> URL {
        // The test bundle sits beside the products of the same build.
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw ServerProcessError.executableMissing
    }

    /// The port `serve` listens on, or 0 once `worker` has started its job worker.
    private static func readiness(of command: String, from handle: FileHandle, deadline: ContinuousClock.Instant) async throws
        -> Int
    {
        var seen = ""
        while ContinuousClock.now < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { throw ServerProcessError.exited(seen) }
            seen += String(decoding: chunk, as: UTF8.self)
            if let match = seen.firstMatch(of: /url=http:\/\/[^:\s]+:(\d+)/), let port = Int(match.1) { return port }
            if command == "worker", seen.contains("job worker started") { return 0 }
        }
        throw ServerProcessError.exited(seen)
    }
}

/// Why a child process did not do what a test waited for.
public enum ServerProcessError: Error {
    case executableMissing
    case exited(String)
    case stillRunning
}
