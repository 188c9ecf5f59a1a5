import Foundation

/// The payload of a `transcribe` job. With a client transcript the job only cleans it; otherwise it recognises the audio.
struct TranscriptionJob: JobPayload {
    let entryID: UUID
    var clientTranscript: ClientTranscript? = nil

    enum CodingKeys: String, CodingKey {
        case entryID = "entry_id"
        case clientTranscript = "client_transcript"
    }
}
