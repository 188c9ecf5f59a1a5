import Foundation
import Testing

@testable import MyDayServer

@Suite struct ProcessRunnerTests {
    @Test func capturesOutputAndStatus() async throws {
        let result = try await ProcessRunner.run("sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: .seconds(10))
        #expect(result.status == 3)
        #expect(String(decoding: result.standardOutput, as: UTF8.self) == "out\n")
        #expect(String(decoding: result.standardError, as: UTF8.self) == "err\n")
    }

    @Test func aToolPastItsTimeIsStopped() async throws {
        let started = ContinuousClock.now
        await #expect(throws: ProcessRunner.Failure.self) {
            try await ProcessRunner.run("sleep", ["30"], timeout: .milliseconds(200))
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func cancellingTheCallerStopsTheTool() async throws {
        let marker = "myday-runner-\(UUID().uuidString.prefix(8))"
        let task = Task { try await ProcessRunner.run("bash", ["-c", "exec -a \(marker) sleep 30"], timeout: .seconds(60)) }
        // Given the child is running
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !Self.isRunning(marker) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(Self.isRunning(marker))
        // When its caller is cancelled, then the call ends with CancellationError and the child is gone
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!Self.isRunning(marker))
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
