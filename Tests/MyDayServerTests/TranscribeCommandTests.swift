import ChildProcesses
import Foundation
import MyDayTestSupport
import Testing

/// `myday-server transcribe FILE`: the worker's pipeline on one file, as JSON.
@Suite struct TranscribeCommandTests {
    /// Runs the command on `audio`; `engine` is `off` for PocketSphinx, or `auto` for the installed speech service.
    private func transcribe(_ audio: Data, engine: String = "off") async throws -> [String: Any] {
        let file = TestFolder.path("myday-cli", ext: "m4a")
        try audio.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await ChildProcess.succeed(
            try ServerProcess.executable().path, ["transcribe", file.path],
            environment: ["MYDAY_LOG_LEVEL": "error", "PATH": "/usr/bin:/bin", "MYDAY_SPEECH_SERVICE": engine])
        return try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any] ?? [:]
    }

    @Test func transcribesAFileAsTheWorkerWould() async throws {
        let speech = try await transcribe(try await TestSpeech.m4a(TestSpeech.diarySentence))
        #expect((speech["words"] as? Int ?? 0) > 5 && speech["noSpeech"] as? Bool == false)
        #expect((speech["clean"] as? String)?.last == ".")
        let silence = try await transcribe(try await TestSpeech.silence(seconds: 2))
        #expect(silence["noSpeech"] as? Bool == true && silence["clean"] as? String == "")
    }

    @Test func withTheSpeechServiceTheWordsAreWhispers() async throws {
        // Given the speech service installed beside this build, started by the command itself
        let speech = try await transcribe(try await TestSpeech.m4a(TestSpeech.diarySentence), engine: "auto")
        // Then the sentence comes back nearly word for word, written as a sentence
        let clean = try #require(speech["clean"] as? String)
        let heard = Set(clean.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
        let said = Set(TestSpeech.diarySentence.split(separator: " ").map(String.init))
        #expect(said.subtracting(heard).count <= 2, "\(clean)")
        #expect(clean.first?.isUppercase == true && clean.last == ".")
        // And silence stays silence
        let silence = try await transcribe(try await TestSpeech.silence(seconds: 3), engine: "auto")
        #expect(silence["noSpeech"] as? Bool == true && silence["words"] as? Int == 0)
    }
}
