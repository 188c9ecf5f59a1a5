import Foundation
import MyDayTestSupport

/// The real `myday` executable run as a child process, with its own state folder.
struct CommandLineClient {
    let home: URL
    var server: URL

    /// What a finished run printed and how it ended.
    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `myday arguments…` to the end.
    @discardableResult
    func run(_ arguments: [String]) throws -> Result {
        let process = try start(arguments)
        let output = process.standardOutputText()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: output, errors: process.standardErrorText())
    }

    /// Starts `myday arguments…` and answers the running process, for tests that kill it.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try ServerProcess.executable(named: "myday")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging([
            "MYDAY_HOME": home.path, "MYDAY_SERVER": server.absoluteString, "MYDAY_PASSWORD": "a long diary password",
        ]) { $1 }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }
}

extension Process {
    fileprivate func standardOutputText() -> String {
        String(decoding: (standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }

    fileprivate func standardErrorText() -> String {
        String(decoding: (standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }
}
