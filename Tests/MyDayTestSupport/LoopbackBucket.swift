import ChildProcesses
import Foundation
import Synchronization

/// An S3-compatible bucket on loopback: moto's S3 server with every signature checked (`Tests/Tools/s3_server.py`),
/// started once per test process and shared; each test keeps to a key prefix of its own.
package struct LoopbackBucket: Sendable {
    package let endpoint: URL
    package let bucket: String
    package let accessKeyID: String
    package let secretAccessKey: String

    /// The bucket of this test process, started on first use.
    package static func shared() async throws -> LoopbackBucket {
        try await starter.value
    }

    /// A key prefix no other test uses (`test-1a2b3c4d/`).
    package static func freshPrefix() -> String { "test-\(UUID().uuidString.prefix(8).lowercased())/" }

    /// The `MYDAY_S3_*` settings of a `myday-server` process using this bucket under `prefix`.
    package func environment(prefix: String) -> [String: String] {
        [
            "MYDAY_S3_BUCKET": bucket, "MYDAY_S3_ENDPOINT": endpoint.absoluteString, "MYDAY_S3_REGION": "us-east-1",
            "MYDAY_S3_ACCESS_KEY_ID": accessKeyID, "MYDAY_S3_SECRET_ACCESS_KEY": secretAccessKey, "MYDAY_S3_PREFIX": prefix,
        ]
    }

    package struct Unavailable: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { "no loopback bucket: \(reason)" }
    }

    /// Holds the server for the life of the test process; its lifeline ends it when the process does.
    private static let process = Mutex<ChildProcess?>(nil)
    private static let starter = Task<LoopbackBucket, any Error> {
        let (bucket, child) = try await start()
        process.withLock { $0 = child }
        return bucket
    }

    /// A bucket of its own, answering DeleteObjects as a service without it does (501 NotImplemented), with the
    /// process that serves it (ended when this process ends, or sooner by the caller).
    package static func withoutDeleteObjects() async throws -> (bucket: LoopbackBucket, server: ChildProcess) {
        try await start(["--without-delete-objects"])
    }

    private static func start(_ options: [String] = []) async throws -> (LoopbackBucket, ChildProcess) {
        guard let python = RepositoryFiles.python else {
            throw Unavailable(reason: "no .build/python: run scripts/install-python-tools first")
        }
        let child = try ChildProcess(python.path, [RepositoryFiles.tool("s3_server.py").path] + options, lifeline: true)
        let ready = try await child.waitUntil { snapshot -> [String]? in
            let text = String(decoding: snapshot.standardOutput, as: UTF8.self)
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }) else { return nil }
            return line.split(separator: " ").map(String.init)
        }
        guard ready.count == 5, let port = Int(ready[1]) else {
            throw Unavailable(reason: "the S3 server said: \(ready.joined(separator: " "))")
        }
        let bucket = LoopbackBucket(
            endpoint: URL(string: "http://127.0.0.1:\(port)")!, bucket: ready[2], accessKeyID: ready[3], secretAccessKey: ready[4]
        )
        return (bucket, child)
    }
}
