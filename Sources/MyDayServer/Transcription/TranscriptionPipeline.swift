import Foundation
import SQLKit

/// Sends every uploaded entry to transcription: a `transcribe` job, enqueued with the upload's commit.
struct TranscriptionPipeline: EntryPipeline {
    func entryUploaded(_ entry: EntryRecord, in db: any SQLDatabase) async throws {
        _ = try await JobQueue.enqueue(
            kind: TranscriptionHandler.kind, payload: TranscriptionJob(entryID: entry.id).json, userID: entry.userID, in: db)
    }
}

/// The payload of a `transcribe` job.
struct TranscriptionJob: JobPayload {
    let entryID: UUID

    enum CodingKeys: String, CodingKey { case entryID = "entry_id" }
}
