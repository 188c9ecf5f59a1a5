import Foundation
import SQLKit

/// Sends every uploaded entry to transcription: a `transcribe` job, enqueued with the upload's commit.
struct TranscriptionPipeline: EntryPipeline {
    func entryUploaded(_ entry: EntryRecord, in db: any SQLDatabase) async throws {
        let payload = String(decoding: try JSONEncoder().encode(TranscriptionJob(entryID: entry.id)), as: UTF8.self)
        _ = try await JobQueue.enqueue(kind: TranscriptionHandler.kind, payload: payload, userID: entry.userID, in: db)
    }
}

/// The payload of a `transcribe` job.
struct TranscriptionJob: Codable, Sendable {
    let entryID: UUID

    enum CodingKeys: String, CodingKey { case entryID = "entry_id" }
}
