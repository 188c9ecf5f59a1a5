import Foundation
import Logging
import MyDaySpeech
import Prometheus

/// The transcript of one local audio file, made as the worker makes it; for operators and benchmarks.
package struct FileTranscript: Sendable, Codable {
    package let raw: String
    package let clean: String
    package let words: Int
    package let noSpeech: Bool
}

/// Decodes, recognises and cleans `file` with the engines `configuration` names, without a database.
package func transcribeFile(_ file: URL, configuration: ServerConfiguration, logger: Logger) async throws -> FileTranscript {
    let scratch = FileManager.default.temporaryDirectory
    let pcm = try await AudioDecoder().decode(file, into: scratch)
    defer { try? FileManager.default.removeItem(at: pcm) }
    let speech = try SpeechEngine.make(configuration, logger: logger)
    let recognition = try await withSpeechService(speech.service) {
        try await speech.recognizer.recognize(pcmFile: pcm, language: nil)
    }
    let metrics = PipelineMetrics(registry: PrometheusCollectorRegistry())
    let clean =
        recognition.noSpeech ? "" : try await makeCleaner(configuration, metrics: metrics, logger: logger).clean(recognition)
    return FileTranscript(
        raw: recognition.rawText, clean: clean,
        words: recognition.words.count,
        noSpeech: recognition.noSpeech)
}

/// Runs `body` with `service` running beside it (stopped afterwards), or just `body` without one.
private func withSpeechService<T: Sendable>(
    _ service: SpeechServiceSupervisor?, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard let service else { return try await body() }
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            try await service.run()
            return nil
        }
        group.addTask { try await body() }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let result { return result }
        }
        throw CancellationError()
    }
}
