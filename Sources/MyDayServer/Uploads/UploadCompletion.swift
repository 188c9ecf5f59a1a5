import Foundation
import Logging
import MyDayModels
import MyDaySpeech
import SQLKit

/// What happens once a recording's audio is uploaded, in this order: the entry's completion is claimed (one request
/// at a time, on any node), the upload is checked where it lies (size, ffprobe, length) and made seekable, and the
/// entry is marked uploaded in the transaction that queues its transcription.
struct UploadCompletion: Sendable {
    let entries: EntryStore
    let blobs: any BlobStore
    let jobs: JobQueue
    let audioProbe: AudioProbe
    /// Where a browser's recording is remuxed before it replaces the upload (in the data directory, beside the blobs).
    let scratch: URL
    let maxRecordingSeconds: Int
    let logger: Logger

    /// How long a completion claim lasts unless renewed: a node that dies while checking an upload holds it no longer.
    static let claimLease = 15_000

    /// Completes `entry`'s upload: checks the audio and queues its transcription (only cleaning, when the client sent
    /// what its own recognizer heard). Answers the entry afterwards; nil when it no longer waited for its upload (a
    /// retried request, say). Throws `APIError`s a person can act on.
    /// With `recordingTimeFrom`, an imported file's entry moves first to when the file says it was recorded.
    func complete(
        _ entry: EntryRecord, userID: UUID, transcript: ClientTranscript?, recordingTimeFrom fileName: String? = nil
    ) async throws -> EntryRecord? {
        guard let key = entry.audioKey else { throw APIError.conflict("Text entries have no audio to complete.") }
        guard let claimed = try await claim(entry, userID: userID) else { return nil }
        let uploaded = try await holdingClaim(of: entry.id, until: claimed) {
            let duration = try await checkUploadedAudio(of: entry, key: key)
            try transcript?.check(fitsWithin: duration ?? entry.durationSeconds)
            if let fileName { try await moveToRecordingTime(entry, key: key, fileName: fileName) }
            return try await queueTranscription(
                of: entry.id, userID: userID, transcript: transcript, durationSeconds: duration, fromStatuses: [.pendingUpload])
        }
        guard let uploaded else { throw APIError.notFound }
        logger.info(
            "entry uploaded",
            metadata: ["entry": "\(entry.id.lowercased)", "transcribed_by": "\(transcript?.engine ?? "server")"])
        return uploaded
    }

    /// Moves the entry to the time the audio's tags, else its file's name, say it was recorded (the order of
    /// `RecordingTime`; the entry's own time stands for the file's modification time).
    private func moveToRecordingTime(_ entry: EntryRecord, key: String, fileName: String) async throws {
        let tagged = try await blobs.withReadableURL(key: key) { url -> TaggedTime? in
            guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
            defer { try? handle.close() }
            return ContainerTags.recordingTime(in: FileBytes(handle))
        }
        let zone = TimeZone(identifier: entry.timeZone) ?? TimeZone(identifier: "UTC")!
        let found = RecordingTime.resolve(tagged: tagged, name: fileName, modified: entry.createdAt, in: zone)
        guard StoredTime.milliseconds(found.date) != StoredTime.milliseconds(entry.createdAt) else { return }
        _ = try await entries.moveToRecordingTime(entry, recordedAt: found.date)
    }

    /// Sends a transcribed or failed recording back to transcription by the server's own recognizer; an entry already
    /// waiting for or in transcription is answered as it is. Nil when the user has no such entry.
    func transcribeAgain(_ entry: EntryRecord, userID: UUID) async throws -> EntryRecord? {
        guard entry.kind == .audio else { throw APIError.conflict("Text entries have no audio to transcribe.") }
        guard entry.status != .pendingUpload else { throw APIError.conflict("The audio has not been uploaded yet.") }
        return try await queueTranscription(
            of: entry.id, userID: userID, transcript: nil, durationSeconds: nil, fromStatuses: [.transcribed, .failed])
    }

    /// Queues again the transcription a deletion stopped, for an entry brought back from Recently deleted.
    func transcribeRestored(_ entry: EntryRecord, userID: UUID) async throws -> EntryRecord? {
        try await queueTranscription(
            of: entry.id, userID: userID, transcript: nil, durationSeconds: nil, fromStatuses: [.uploaded, .transcribing])
    }

    /// Marks the entry uploaded, when its status is one of `fromStatuses`, and queues its transcription in the same
    /// transaction; then wakes this process's worker.
    private func queueTranscription(
        of id: UUID, userID: UUID, transcript: ClientTranscript?, durationSeconds: Double?, fromStatuses: Set<EntryStatus>
    ) async throws -> EntryRecord? {
        defer { jobs.doorbell.ring() }
        return try await entries.transaction { db in
            guard
                let marked = try await EntryStore.markUploaded(
                    id: id, userID: userID, durationSeconds: durationSeconds, fromStatuses: fromStatuses, in: db)
            else { return nil }
            if marked.changed {
                // An imported recording waits for the person's new ones, and the oldest imported goes first.
                let imported = try await EntryStore.isImported(id, in: db)
                _ = try await JobQueue.enqueue(
                    kind: TranscriptionHandler.kind,
                    payload: TranscriptionJob(entryID: id, clientTranscript: transcript).json, userID: userID,
                    runAt: imported ? min(Date(), marked.entry.createdAt) : Date(), priority: imported ? 1 : 0, in: db)
            }
            return marked.entry
        }
    }

    /// Takes this entry's completion for this request, waiting while another request (on any node) holds it; answers
    /// until when it holds it, or nil once the entry no longer waits for its upload.
    private func claim(_ entry: EntryRecord, userID: UUID) async throws -> Int? {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let now = StoredTime.now()
            if try await entries.claimCompletion(id: entry.id, userID: userID, until: now + Self.claimLease, now: now) {
                return now + Self.claimLease
            }
            guard try await entries.entry(id: entry.id, userID: userID)?.status == .pendingUpload else { return nil }
            guard ContinuousClock.now < deadline else {
                throw APIError.conflict("This upload is still being checked; try again in a moment.")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Runs `body` while renewing this request's claim every third of its lease, so that a long check keeps it and a
    /// crashed node's claim ends soon. When the claim is lost (the database did not answer for a whole lease, and
    /// another request took it), `body` is cancelled: two requests never check one upload at once. When `body` fails,
    /// the claim is given back.
    private func holdingClaim<T: Sendable>(
        of id: UUID, until claimed: Int, _ body: @Sendable @escaping () async throws -> T
    ) async throws -> T {
        let lease = CompletionLease(until: claimed)
        let run = await runRenewingLease(
            every: .milliseconds(Self.claimLease / 3), renew: { await lease.renew(id: id, in: entries, lease: Self.claimLease) },
            body)
        do {
            switch run {
            case .finished(let result): return try result.get()
            case .lost, .handedBack:
                throw APIError.conflict("Checking this upload took too long and was taken over; try again in a moment.")
            }
        } catch {
            try? await entries.releaseCompletion(id: id, held: lease.until)
            throw error
        }
    }

    /// Moves the newest upload into place, then rejects (and removes) it when it is missing, of the wrong size (asked
    /// first: a `HEAD` in a bucket), too long or not audio (ffprobe reads only the parts it needs, where the file lies);
    /// answers its duration when known. A recording players could not seek in (browsers' WebM, or any file that does not
    /// say how long it is) is made seekable.
    private func checkUploadedAudio(of entry: EntryRecord, key: String) async throws -> Double? {
        _ = try await blobs.move(from: BlobKey.incoming(ofAudio: key), to: key)
        guard let size = try await blobs.size(key: key) else {
            throw APIError.unprocessable("No audio has been uploaded for this entry yet; PUT it to the upload URL first.")
        }
        let problem: String
        if let declared = entry.sizeBytes, declared != size {
            problem = "The upload has \(size) bytes but the entry declared \(declared); upload it again."
        } else {
            let container = AudioContainer(rawValue: entry.contentType ?? "") ?? .mp4
            switch try await blobs.withReadableURL(key: key, { try await audioProbe.probe($0, expected: container) }) {
            case .audio(let finding):
                guard let seconds = finding.durationSeconds, seconds > Double(maxRecordingSeconds) else {
                    // Browsers write WebM as a live stream, without the index players seek by: every WebM is remuxed.
                    if container == .webm || !finding.statesItsDuration {
                        try await makeSeekable(key: key, container: container, entryID: entry.id)
                    }
                    return finding.durationSeconds
                }
                problem = Self.tooLong(seconds, limit: maxRecordingSeconds)
            case .rejected(let reason): problem = reason + " Upload it again."
            }
        }
        try await blobs.delete(key: key)
        throw APIError.unprocessable(problem)
    }

    /// Replaces the audio at `key` by a lossless remux that states its length and can be sought in (players show
    /// neither for browsers' own WebM); when ffmpeg cannot, the upload stays as it came.
    private func makeSeekable(key: String, container: AudioContainer, entryID: UUID) async throws {
        let remuxed = try await blobs.withLocalFile(key: key) {
            try await SeekableRemux().remux($0, container: container, into: scratch)
        }
        guard let remuxed else {
            logger.warning(
                "a recording could not be made seekable; it is kept as uploaded", metadata: ["entry": "\(entryID.lowercased)"])
            return
        }
        do {
            _ = try await blobs.store(fileAt: remuxed, key: key)
        } catch {
            try? FileManager.default.removeItem(at: remuxed)
            throw error
        }
    }

    /// Why a recording of `seconds` is refused: it names the limit.
    static func tooLong(_ seconds: Double, limit: Int) -> String {
        "The recording lasts \(spokenLength(seconds: Int(seconds.rounded(.up)))); this server keeps recordings of up to "
            + "\(spokenLength(seconds: limit))."
    }
}
