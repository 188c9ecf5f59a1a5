import Foundation

@testable import MyDayKit

/// A `DeviceTranscriber` that answers when the test says, and remembers what it was asked.
final class ScriptedTranscriber: DeviceTranscriber, @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [(file: URL, locale: Locale)] = []
    private let answers: AsyncStream<Result<DeviceTranscript, any Error>>
    private let answer: AsyncStream<Result<DeviceTranscript, any Error>>.Continuation

    init() {
        (answers, answer) = AsyncStream.makeStream()
    }

    var requests: [(file: URL, locale: Locale)] { lock.withLock { asked } }

    func transcribe(_ file: URL, locale: Locale) async throws -> DeviceTranscript {
        lock.withLock { asked.append((file, locale)) }
        for await result in answers { return try result.get() }
        throw CancellationError()
    }

    /// Lets the waiting transcription end with `result`.
    func respond(_ result: Result<DeviceTranscript, any Error>) { answer.yield(result) }
}

/// An error a transcriber throws when it cannot run.
struct TranscriberUnavailable: Error {}
