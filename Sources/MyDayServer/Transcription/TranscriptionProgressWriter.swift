import Foundation
import Logging
import MyDaySpeech

/// Writes how far a long recording's transcription is onto its entry (`transcription_percent`), so the person's
/// devices can show "Transcribing… 40%". The engine is never held up: it tells a share, and the newest one is
/// written when the last write is done, only once it has moved by `step` points.
struct TranscriptionProgressWriter: Sendable {
    let entries: EntryStore
    let entry: EntryRecord
    let logger: Logger
    /// Recordings shorter than this are done before anyone would look: nothing is written for them.
    var fromSeconds = 60.0
    /// Points the percentage moves before it is written again.
    var step = 5

    /// Runs `recognize`, writing the progress it tells; every write has ended when this returns.
    func whileHeard<Result: Sendable>(_ recognize: (@escaping RecognitionProgress) async throws -> Result) async throws
        -> Result
    {
        guard entry.durationSeconds >= fromSeconds else { return try await recognize { _ in } }
        let (percents, told) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { [entries, entry, logger, step] in
                var written = 0
                for await percent in percents where percent >= written + step {
                    do {
                        try await entries.recordTranscriptionProgress(
                            entryID: entry.id, userID: entry.userID, percent: percent)
                        written = percent
                    } catch {
                        logger.warning(
                            "transcription progress not written",
                            metadata: ["entry": "\(entry.id.lowercased)", "error": "\(error)"])
                    }
                }
            }
            defer { told.finish() }
            // Never 100: the words are not there until they are stored.
            let result = try await recognize { share in told.yield(min(99, max(0, Int(share * 100)))) }
            told.finish()
            try await group.waitForAll()
            return result
        }
    }
}
