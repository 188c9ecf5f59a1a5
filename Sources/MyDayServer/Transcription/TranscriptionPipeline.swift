import Foundation
import SQLKit

/// Sends every uploaded entry to transcription: a `transcribe` job, enqueued with the upload's commit.
struct TranscriptionPipeline: EntryPipeline {
    func entryUploaded(_ entry: EntryRecord, in db: any SQLDatabase) async throws {
        try await Self.enqueue(entryID: entry.id, in: db)
    }

    static func enqueue(entryID: UUID, in db: any SQLDatabase) async throws {
        let payload = String(decoding: try JSONEncoder().encode(TranscriptionJob(entryID: entryID)), as: UTF8.self)
        _ = try await JobQueue.enqueue(kind: TranscriptionHandler.kind, payload: payload, in: db)
    }
}

/// The payload of a `transcribe` job.
struct TranscriptionJob: Codable, Sendable {
    let entryID: UUID

    enum CodingKeys: String, CodingKey { case entryID = "entry_id" }
}
