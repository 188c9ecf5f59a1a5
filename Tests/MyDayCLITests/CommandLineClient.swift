import ChildProcesses
import Foundation
import MyDayTestSupport

/// The real `myday` executable run as a child process, with its own state folder.
struct CommandLineClient {
    let home: URL
    var server: URL

    /// Runs `myday arguments…` to the end and answers its status and output.
    @discardableResult
    func run(_ arguments: [String]) async throws -> ChildProcess.Output {
        try await start(arguments).finish()
    }

    /// Starts `myday arguments…` and answers the running process, for tests that kill it.
    func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(
            try ServerProcess.executable(named: "myday").path, arguments,
            environment: ProcessInfo.processInfo.environment.merging([
                "MYDAY_HOME": home.path, "MYDAY_SERVER": server.absoluteString, "MYDAY_PASSWORD": "a long diary password",
            ]) { $1 })
    }
}
