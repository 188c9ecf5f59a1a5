import Foundation
import SQLKit

/// Sends every uploaded entry to transcription: a `transcribe` job, enqueued with the upload's commit.
struct TranscriptionPipeline: EntryPipeline {
    /// Wakes this process's worker for the job; a worker elsewhere finds it by polling.
    let doorbell: JobDoorbell

    func entryUploaded(_ entry: EntryRecord, clientTranscript: ClientTranscript?, in db: any SQLDatabase) async throws {
        _ = try await JobQueue.enqueue(
            kind: TranscriptionHandler.kind,
            payload: TranscriptionJob(entryID: entry.id, clientTranscript: clientTranscript).json, userID: entry.userID, in: db)
    }

    func committed() {
        doorbell.ring()
    }
}

/// The payload of a `transcribe` job. With a client transcript the job only cleans it; otherwise it recognises the audio.
struct TranscriptionJob: JobPayload {
    let entryID: UUID
    var clientTranscript: ClientTranscript? = nil

    enum CodingKeys: String, CodingKey {
        case entryID = "entry_id"
        case clientTranscript = "client_transcript"
    }
}
