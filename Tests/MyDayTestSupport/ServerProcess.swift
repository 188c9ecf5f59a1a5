import ChildProcesses
import Foundation

/// The real `myday-server` executable, started as a child process, for tests that kill or signal it.
package final class ServerProcess: Sendable {
    package let child: ChildProcess
    package let port: Int

    /// Starts `myday-server <command>` with `environment` and waits until it listens (`serve`) or works (`worker`).
    /// It transcribes with PocketSphinx unless `environment` sets `MYDAY_SPEECH_SERVICE`.
    package init(dataDirectory: URL, environment: [String: String] = [:], command: String = "serve") async throws {
        let settings = [
            "MYDAY_PORT": "0", "MYDAY_DATA_DIR": dataDirectory.path, "MYDAY_LOG_LEVEL": "info",
            "MYDAY_SECRET": "4c1e9a7f3b2d8e6c0a5f1b9d7e3c2a8f6b0d4e9c1a7f5b3d2e8c6a0f9b1d4e7c", "MYDAY_SPEECH_SERVICE": "off",
        ]
        // The executable's own bcrypt cost, whatever the shell that runs the tests sets for test servers.
        var inherited = ProcessInfo.processInfo.environment
        inherited["MYDAY_TEST_BCRYPT_COST"] = nil
        child = try ChildProcess(
            try Self.executable().path, [command],
            environment: inherited.merging(settings.merging(environment) { $1 }) { $1 },
            errors: .mergedWithOutput)
        port = try await child.waitUntil { snapshot in
            let logs = String(decoding: snapshot.standardOutput, as: UTF8.self)
            if let match = logs.firstMatch(of: /url=http:\/\/[^:\s]+:(\d+)/), let port = Int(match.1) { return port }
            return command == "worker" && logs.contains("job worker started") ? 0 : nil
        }
    }

    /// The server's base URL.
    package var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Whether the server holds a file open under `blobs/tmp/` (an upload being written).
    package func isWritingAnUpload() -> Bool { OpenFiles.of(child.processIdentifier).contains { $0.contains("/blobs/tmp/") } }

    package func kill(signal: Int32 = SIGKILL) { child.signal(signal) }

    /// Waits for the process to end and answers its exit status.
    package func waitForExit() async throws -> Int32 { try await child.waitUntil { $0.exitStatus } }

    /// Everything the server has logged so far.
    package var logs: String { String(decoding: child.snapshot.standardOutput, as: UTF8.self) }

    deinit { child.signal(SIGKILL) }

    /// An executable product of the same build as the running tests, such as `myday-server` or `myday`.
    package static func executable(named name: String = "myday-server") throws -> URL {
        // The test bundle sits beside the products of the same build.
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw ServerProcessError.executableMissing
    }
}

/// Why a child process did not do what a test waited for.
package enum ServerProcessError: Error {
    case executableMissing
}
