import SQLKit

/// What happens to an entry once its audio is stored durably: the seam where transcription plugs in.
protocol EntryPipeline: Sendable {
    /// Runs inside the transaction that marks `entry` uploaded, so any work it enqueues commits with that change.
    /// `clientTranscript` is what the client's own recognizer heard, when it sent that.
    func entryUploaded(_ entry: EntryRecord, clientTranscript: ClientTranscript?, in db: any SQLDatabase) async throws
    /// Called after that transaction: the work it queued can start now (a spare call when it failed costs one look).
    func committed()
}
