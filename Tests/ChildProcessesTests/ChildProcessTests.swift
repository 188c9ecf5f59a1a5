import ChildProcesses
import Foundation
import MyDayTestSupport
import Testing

@Suite struct ChildProcessTests {
    @Test func capturesOutputAndStatus() async throws {
        let result = try await ChildProcess.run("sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: .seconds(600))
        #expect(result.status == 3)
        #expect(result.text == "out\n")
        #expect(result.errorText == "err\n")
    }

    @Test func aChildStartsWithNoSignalBlocked() async throws {
        // The pool's threads block SIGTERM and others; a child spawned from one must not inherit that
        let status = try await ChildProcess.succeed("grep", ["-E", "^Sig(Blk|Ign):", "/proc/self/status"]).text
        let masks = status.split(separator: "\n").compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        // Then none of the standard signals (1 to 31) is blocked or ignored
        #expect(masks.count == 2 && masks.allSatisfy { $0 & 0x7FFF_FFFF == 0 }, "\(status)")
    }

    @Test func feedsStandardInputAndReadsLargeOutputWhole() async throws {
        // Given more input than a pipe buffers (64 KiB), so writing and reading must go on at once
        let input = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0) })
        let result = try await ChildProcess.run("cat", [], input: input)
        #expect(result.status == 0 && result.standardOutput == input)
    }

    @Test func succeedThrowsWithTheToolsMessage() async throws {
        let failure = await #expect(throws: ChildProcess.Failure.self) {
            try await ChildProcess.succeed("sh", ["-c", "echo broken >&2; exit 2"])
        }
        #expect(failure == .exited("sh", status: 2, standardError: "broken\n"))
        await #expect(throws: ChildProcess.Failure.notFound("no-such-tool-anywhere")) {
            try await ChildProcess.run("no-such-tool-anywhere", [])
        }
    }

    @Test func aToolPastItsTimeIsStoppedAndGone() async throws {
        let marker = "myday-past-time-\(UUID().uuidString.prefix(8))"
        // When a tool that would run for a minute is given a short time limit
        let failure = await #expect(throws: ChildProcess.Failure.self) {
            try await ChildProcess.run("bash", ["-c", "exec -a \(marker) sleep 60"], timeout: .milliseconds(200))
        }
        // Then the call ends with timedOut, and the child is no longer running
        #expect(failure == .timedOut("bash", .milliseconds(200)))
        #expect(!Self.isRunning(marker))
    }

    @Test func cancellingTheCallerStopsTheTool() async throws {
        let marker = "myday-runner-\(UUID().uuidString.prefix(8))"
        let task = Task { try await ChildProcess.run("bash", ["-c", "exec -a \(marker) sleep 60"]) }
        // Given the child is running
        try await pollUntil("the child runs") { Self.isRunning(marker) }
        // When its caller is cancelled, then the call ends with CancellationError and the child is gone
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!Self.isRunning(marker))
    }

    @Test func awaitsWhatAToolPrintsAndFailsWhenItEndsFirst() async throws {
        // Given a tool that prints a line, then waits for its input to end
        let child = try ChildProcess("sh", ["-c", "echo ready 4242; read line; echo done"], input: Data("go\n".utf8))
        let port = try await child.waitUntil { snapshot in
            String(decoding: snapshot.standardOutput, as: UTF8.self).firstMatch(of: /ready (\d+)/).flatMap { Int($0.1) }
        }
        #expect(port == 4242)
        // Then a wait for something it never prints ends with what it did print once it exits
        let never = await #expect(throws: ChildProcess.Failure.self) {
            try await child.waitUntil { String(decoding: $0.standardOutput, as: UTF8.self).contains("never") ? true : nil }
        }
        #expect(never == .outputNeverMatched("sh", output: "ready 4242\ndone\n"))
        #expect(try await child.finish().status == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func manyWaitingChildrenHoldNoThreadOfThePool() async throws {
        // Given more children waiting at once than the cooperative pool has threads
        let children = try (0..<16).map { _ in try ChildProcess("sleep", ["600"]) }
        let waiting = Task {
            try await withThrowingTaskGroup(of: Int32.self) { group in
                for child in children { group.addTask { try await child.finish().status } }
                return try await group.reduce(0) { $0 + $1 }
            }
        }
        // When other async work runs meanwhile, then it completes (it would hang if the waits held the pool)
        let sum = await withTaskGroup(of: Int.self) { group in
            for value in 0..<100 { group.addTask { value } }
            return await group.reduce(0, +)
        }
        #expect(sum == 4950)
        // And the children, once stopped, are all awaited
        for child in children { child.signal(SIGTERM) }
        _ = try? await waiting.value
        #expect(children.allSatisfy { !$0.isRunning })
    }

    private static func isRunning(_ marker: String) -> Bool {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return folders.contains { folder in
            guard Int(folder) != nil, let cmdline = FileManager.default.contents(atPath: "/proc/\(folder)/cmdline") else {
                return false
            }
            let text = String(decoding: cmdline, as: UTF8.self)
            let isZombie = (try? String(contentsOfFile: "/proc/\(folder)/stat", encoding: .utf8))?.contains(") Z ") ?? false
            return text.hasPrefix(marker) && !isZombie
        }
    }
}
