import ChildProcesses
import Foundation
import MyDayTestSupport
import Testing

/// `myday-server transcribe FILE`: the worker's pipeline on one file, as JSON.
@Suite struct TranscribeCommandTests {
    private func transcribe(_ audio: Data) async throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("myday-cli-\(UUID().uuidString).m4a")
        try audio.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await ChildProcess.succeed(
            try ServerProcess.executable().path, ["transcribe", file.path],
            environment: ["MYDAY_LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"])
        return try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any] ?? [:]
    }

    @Test func transcribesAFileAsTheWorkerWould() async throws {
        let speech = try await transcribe(try await TestSpeech.m4a(TestSpeech.diarySentence))
        #expect((speech["words"] as? Int ?? 0) > 5 && speech["noSpeech"] as? Bool == false)
        #expect((speech["clean"] as? String)?.last == ".")
        let silence = try await transcribe(try await TestSpeech.silence(seconds: 2))
        #expect(silence["noSpeech"] as? Bool == true && silence["clean"] as? String == "")
    }
}
