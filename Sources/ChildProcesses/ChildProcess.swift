import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command-line tool running as a child process, awaited without blocking a thread of Swift's cooperative pool.
///
/// Its pipes are drained by threads of their own and its end comes from `Process.terminationHandler`, so any
/// number of children can run while async code goes on.
package final class ChildProcess: Sendable {
    /// What a finished tool left behind.
    package struct Output: Sendable {
        package let status: Int32
        package let standardOutput: Data
        package let standardError: Data

        /// The standard output as UTF-8 text.
        package var text: String { String(decoding: standardOutput, as: UTF8.self) }
        /// The standard error as UTF-8 text.
        package var errorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Why a tool did not give an answer.
    package enum Failure: Error, CustomStringConvertible, Equatable {
        case notFound(String)
        case timedOut(String, Duration)
        case exited(String, status: Int32, standardError: String)
        case outputNeverMatched(String, output: String)

        package var description: String {
            switch self {
            case .notFound(let tool): "\(tool) is not installed or not on PATH"
            case .timedOut(let tool, let limit): "\(tool) did not finish within \(limit)"
            case .exited(let tool, let status, let errors): "\(tool) exited with status \(status): \(errors)"
            case .outputNeverMatched(let tool, let output): "\(tool) ended without printing what was awaited:\n\(output)"
            }
        }
    }

    /// Everything seen of the child so far; watchers are offered every new snapshot.
    package struct Snapshot: Sendable {
        package var standardOutput = Data()
        package var standardError = Data()
        /// The exit status, as soon as the child has ended.
        package var exitStatus: Int32?
        /// The exit status once the child has ended and all its output has been read.
        package var status: Int32?
    }

    package let name: String
    package let processIdentifier: Int32
    private let state = SharedState()

    /// Where the child's standard error goes.
    package enum Errors: Sendable {
        /// Read into `Snapshot.standardError`.
        case captured
        /// Into the standard output pipe, as a terminal would show both.
        case mergedWithOutput
        /// Straight to this process's standard error (for a long-running child whose log is not kept in memory).
        case passedThrough
    }

    /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`.
    ///
    /// `environment` replaces the child's whole environment when given; `input` is written to its standard input,
    /// which is then closed (without it, standard input is `/dev/null`). With `lifeline`, standard input is instead a
    /// pipe this process holds open, never writing, until the child ends: when this process dies, even by SIGKILL,
    /// the kernel closes it and the child reads the end of its input.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        errors errorHandling: Errors = .captured, lifeline: Bool = false
    ) throws {
        guard let url = Self.locate(executable) else { throw Failure.notFound(executable) }
        name = url.lastPathComponent
        let output = try Spawn.pipe()
        let errors: (read: Int32, write: Int32)? =
            switch errorHandling {
            case .captured: try Spawn.pipe()
            case .mergedWithOutput: output
            case .passedThrough: nil
            }
        let inputPipe = try (input != nil || lifeline) ? Spawn.pipe() : nil
        let nullDevice = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(nullDevice) }
        do {
            processIdentifier = try Spawn.child(
                path: url.path, arguments: arguments,
                environment: environment ?? ProcessInfo.processInfo.environment,
                input: inputPipe?.read ?? nullDevice, output: output.write, errors: errors?.write ?? STDERR_FILENO)
        } catch {
            for descriptor in [output.read, output.write, errors?.read, errors?.write, inputPipe?.read, inputPipe?.write] {
                if let descriptor { close(descriptor) }
            }
            throw error
        }
        // The parent's copies of the child's ends must close, or the readers never see the end of the output.
        close(output.write)
        state.drain(output.read, into: \Snapshot.standardOutput)
        if errorHandling == .captured, let errors {
            close(errors.write)
            state.drain(errors.read, into: \Snapshot.standardError)
        } else {
            state.update { $0.openPipes -= 1 }
        }
        if let inputPipe { close(inputPipe.read) }
        if let inputPipe, let input {
            Thread.detachNewThread {
                // A child that exits before reading all its input must fail this write with EPIPE, not end the
                // caller's process: SIGPIPE stays blocked on this thread (a thread of its own, made for this write).
                var brokenPipe = sigset_t()
                sigemptyset(&brokenPipe)
                sigaddset(&brokenPipe, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &brokenPipe, nil)
                let handle = FileHandle(fileDescriptor: inputPipe.write, closeOnDealloc: true)
                try? handle.write(contentsOf: input)
                try? handle.close()
            }
        }
        let state = state
        let heldInput = lifeline && input == nil ? inputPipe?.write : nil
        Spawn.awaitExit(of: processIdentifier) { status in
            if let heldInput { close(heldInput) }
            state.update { $0.snapshot.exitStatus = status }
        }
    }

    /// Runs a tool to its end and answers its output; past `timeout` it is killed and `Failure.timedOut` thrown.
    /// A cancelled caller kills the tool too. Either way the child has ended when this returns or throws.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        timeout: Duration? = nil
    ) async throws -> Output {
        let child = try ChildProcess(executable, arguments, environment: environment, input: input)
        return try await child.finish(within: timeout)
    }

    /// Like `run`, but a status other than 0 throws `Failure.exited` with the tool's standard error.
    @discardableResult
    package static func succeed(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        timeout: Duration? = nil
    ) async throws -> Output {
        let output = try await run(executable, arguments, environment: environment, input: input, timeout: timeout)
        guard output.status == 0 else {
            throw Failure.exited(executable, status: output.status, standardError: output.errorText)
        }
        return output
    }

    /// Waits for the child to end (and its output to close); past `timeout`, or when the caller is cancelled, kills it.
    package func finish(within timeout: Duration? = nil) async throws -> Output {
        let status: Int32? = await withTaskCancellationHandler {
            await withTaskGroup(of: Int32?.self) { group in
                group.addTask { try? await self.waitUntil { $0.status } }
                if let timeout {
                    group.addTask {
                        try? await Task.sleep(for: timeout)
                        return nil
                    }
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        } onCancel: {
            self.signal(SIGKILL)
        }
        guard let status, !Task.isCancelled else {
            signal(SIGKILL)
            _ = try? await withoutCancellation { try await self.waitUntil { $0.exitStatus } }
            try Task.checkCancellation()
            throw Failure.timedOut(name, timeout ?? .zero)
        }
        let snapshot = self.snapshot
        return Output(status: status, standardOutput: snapshot.standardOutput, standardError: snapshot.standardError)
    }

    /// Waits until `match` finds something in what the child has shown so far (called again on each change).
    /// Throws `Failure.outputNeverMatched` if the child ends first, and `CancellationError` when cancelled.
    package func waitUntil<T: Sendable>(_ match: @escaping @Sendable (Snapshot) -> T?) async throws -> T {
        let id = UUID()
        let name = name
        let state = state
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let watcher: SharedState.Watcher = { snapshot in
                    guard let snapshot else {
                        continuation.resume(throwing: CancellationError())
                        return true
                    }
                    if let found = match(snapshot) {
                        continuation.resume(returning: found)
                    } else if snapshot.status != nil {
                        let shown = String(decoding: snapshot.standardOutput + snapshot.standardError, as: UTF8.self)
                        continuation.resume(throwing: Failure.outputNeverMatched(name, output: shown))
                    } else {
                        return false
                    }
                    return true
                }
                // A cancellation that came before the watcher was registered found nothing to end.
                let cancelled = Task.isCancelled
                state.lock.withLock { state in
                    if !watcher(cancelled ? nil : state.snapshot) { state.watchers[id] = watcher }
                }
            }
        } onCancel: {
            state.lock.withLock { state in _ = state.watchers.removeValue(forKey: id)?(nil) }
        }
    }

    /// What the child has shown so far, and its status once it has ended.
    package var snapshot: Snapshot { state.lock.withLock { $0.snapshot } }

    /// Whether the child is still running (or its output still open).
    package var isRunning: Bool { snapshot.exitStatus == nil }

    /// Sends `signal` to the child; nothing happens once it has ended.
    package func signal(_ signal: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, signal)
    }

    private static func locate(_ tool: String) -> URL? {
        if tool.contains("/") { return FileManager.default.isExecutableFile(atPath: tool) ? URL(fileURLWithPath: tool) : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(tool) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// What a child has shown and who waits for it, shared with the threads that drain its pipes.
private final class SharedState: Sendable {
    struct State {
        var snapshot = ChildProcess.Snapshot()
        var openPipes = 2
        var watchers: [UUID: Watcher] = [:]
    }

    /// Offered each new snapshot, or nil when its waiter was cancelled; answers whether it is done.
    typealias Watcher = @Sendable (ChildProcess.Snapshot?) -> Bool

    let lock = Mutex(State())

    /// Applies `change`, then offers the new snapshot to every watcher, under the lock so that none misses a change
    /// or resumes twice (watchers only match and resume a continuation).
    func update(_ change: (inout State) -> Void) {
        lock.withLock { state in
            change(&state)
            if state.openPipes == 0, let status = state.snapshot.exitStatus { state.snapshot.status = status }
            let snapshot = state.snapshot
            state.watchers = state.watchers.filter { !$0.value(snapshot) }
        }
    }

    /// Reads `descriptor` to its end on a thread of its own, appending what comes to the snapshot, then closes it.
    func drain(_ descriptor: Int32, into field: WritableKeyPath<ChildProcess.Snapshot, Data> & Sendable) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                let chunk = Data(buffer[0..<count])
                self.update { $0.snapshot[keyPath: field].append(chunk) }
            }
            close(descriptor)
            self.update { $0.openPipes -= 1 }
        }
    }
}

/// Runs `body` shielded from the caller's cancellation (a cleanup that must finish).
private func withoutCancellation<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task { try await body() }.value
}
