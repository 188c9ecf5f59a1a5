import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command-line tool (ffprobe, ffmpeg) as a child process with a time limit, capturing its output.
enum ProcessRunner {
    struct Result: Sendable {
        let status: Int32
        let standardOutput: Data
        let standardError: Data
    }

    enum Failure: Error, CustomStringConvertible {
        case notFound(String)
        case timedOut(String, Duration)

        var description: String {
            switch self {
            case .notFound(let tool): "\(tool) is not installed or not on PATH"
            case .timedOut(let tool, let limit): "\(tool) did not finish within \(limit)"
            }
        }
    }

    static func run(_ tool: String, _ arguments: [String], timeout: Duration) async throws -> Result {
        guard let executable = locate(tool) else { throw Failure.notFound(tool) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice

        let finished = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { finished.continuation.yield($0.terminationStatus) }
        try process.run()
        async let standardOutput = readToEnd(output.fileHandleForReading)
        async let standardError = readToEnd(errors.fileHandleForReading)

        // A cancelled caller (a job handed back at shutdown) takes its child process down with it.
        let status = await withTaskCancellationHandler {
            await withTaskGroup(of: Int32?.self) { group in
                group.addTask { await finished.stream.first { _ in true } ?? -1 }
                group.addTask {
                    try? await Task.sleep(for: timeout)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        } onCancel: {
            kill(process.processIdentifier, SIGKILL)
        }
        guard let status, !Task.isCancelled else {
            kill(process.processIdentifier, SIGKILL)
            _ = await (standardOutput, standardError)
            try Task.checkCancellation()
            throw Failure.timedOut(tool, timeout)
        }
        return Result(status: status, standardOutput: await standardOutput, standardError: await standardError)
    }

    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }

    private static func locate(_ tool: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(tool) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
