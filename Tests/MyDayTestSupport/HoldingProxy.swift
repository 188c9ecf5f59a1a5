import ChildProcesses
import Foundation

/// A loopback proxy to a server that holds what each connection sends after its first bytes, until `release()`
/// (`Tests/Tools/holding_proxy.py`): a test knows the server is in the middle of an upload for as long as it needs.
package struct HoldingProxy: Sendable {
    package let url: URL
    private let process: ChildProcess

    package init(target: URL, holdAfter bytes: Int) async throws {
        process = try ChildProcess(
            "python3", [RepositoryFiles.tool("holding_proxy.py").path, String(target.port ?? 80), String(bytes)],
            lifeline: true)
        let port = try await process.waitUntil { snapshot -> Int? in
            String(decoding: snapshot.standardOutput, as: UTF8.self).split(separator: "\n")
                .first { $0.hasPrefix("ready ") }.flatMap { Int($0.dropFirst("ready ".count)) }
        }
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Lets held connections, and every later one, through unhindered.
    package func release() { process.signal(SIGUSR1) }
}
