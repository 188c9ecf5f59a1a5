import Foundation
import MyDayAPI
import MyDayModels
import MyDaySpeech

extension APIHandler {
    func createEntry(_ input: Operations.CreateEntry.Input) async throws -> Operations.CreateEntry.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        try await limits.entryCreation(user: user.id.lowercased)
        let new = try newEntry(from: body)
        let result: (entry: EntryRecord, created: Bool)
        do {
            result = try await entries.create(
                new, userID: user.id, quotaBytes: quotaBytes,
                uploadExpiresAt: Date().addingTimeInterval(links.uploadLifetime.seconds))
        } catch let full as QuotaExceeded {
            throw APIError.quotaExceeded(full)
        } catch EntryStore.CreateError.idBelongsToAnotherUser {
            throw APIError.conflict("This id is taken; generate a new UUID for the entry.")
        } catch EntryStore.CreateError.deleted {
            throw APIError.conflict("The entry with this id was deleted; generate a new UUID for a new entry.")
        }
        var answer = Components.Schemas.CreatedEntry(entry: Self.schema(result.entry))
        if result.entry.status == .pendingUpload, let key = result.entry.audioKey {
            let link = links.upload(
                audioKey: key, contentType: result.entry.contentType ?? AudioContainer.mp4.rawValue,
                length: result.entry.sizeBytes)
            answer.upload = .init(
                url: link.url, method: .put, headers: .init(additionalProperties: link.headers), expiresAt: link.expires)
        }
        return result.created ? .created(.init(body: .json(answer))) : .ok(.init(body: .json(answer)))
    }

    func listEntries(_ input: Operations.ListEntries.Input) async throws -> Operations.ListEntries.Output {
        let user = try RequestUser.required()
        let limit = input.query.limit ?? 100
        guard (1...500).contains(limit) else { throw APIError.badRequest("'limit' must be 1 to 500.") }
        let cursor = try Self.cursor(input.query.since)
        let page = try await entries.changes(userID: user.id, after: cursor, limit: limit)
        let nextCursor = page.entries.last?.changeSeq ?? cursor
        return .ok(
            .init(
                body: .json(
                    .init(
                        entries: page.entries.filter { $0.deletedAt == nil }.map(Self.schema),
                        deletedIds: page.entries.filter { $0.deletedAt != nil }.map(\.id.lowercased),
                        nextCursor: String(nextCursor), hasMore: page.hasMore))))
    }

    /// A delta sync's `since`: a change sequence from an earlier answer; 0 when absent.
    static func cursor(_ since: String?) throws -> Int {
        guard let since else { return 0 }
        guard (1...18).contains(since.count), since.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(since) else {
            throw APIError.badRequest("'since' must be a cursor from an earlier answer.")
        }
        return value
    }

    func getEntry(_ input: Operations.GetEntry.Input) async throws -> Operations.GetEntry.Output {
        .ok(.init(body: .json(Self.schema(try await ownedEntry(input.path.id)))))
    }

    func updateEntry(_ input: Operations.UpdateEntry.Input) async throws -> Operations.UpdateEntry.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        let id = try Validation.id(input.path.id)
        let edit = EntryEdit(
            title: try Validation.title(body.title), text: try Validation.text(body.text), tags: try Validation.tags(body.tags),
            mood: try Validation.mood(body.mood))
        guard edit.title != nil || edit.text != nil || edit.tags != nil || edit.mood != nil else {
            throw APIError.unprocessable("Name at least one of 'title', 'text', 'tags' or 'mood'.")
        }
        if edit.text != nil {
            let current = try await ownedEntry(input.path.id)
            guard current.status == .transcribed || current.status == .failed else {
                throw APIError.conflict("The transcript is not ready yet; edit its text once it is.")
            }
        }
        let edited: EntryRecord?
        do {
            edited = try await entries.edit(id: id, userID: user.id, edit, quotaBytes: quotaBytes)
        } catch let full as QuotaExceeded {
            throw APIError.quotaExceeded(full)
        }
        guard let edited else { throw APIError.notFound }
        return .ok(.init(body: .json(Self.schema(edited))))
    }

    func deleteEntry(_ input: Operations.DeleteEntry.Input) async throws -> Operations.DeleteEntry.Output {
        let user = try RequestUser.required()
        let result = try await entries.delete(id: try Validation.id(input.path.id), userID: user.id)
        guard result.found else { throw APIError.notFound }
        if let key = result.audioKey {
            do {
                try await blobs.delete(key: key)
                try await blobs.delete(key: BlobKey.incoming(ofAudio: key))
            } catch {
                logger.error("the audio of a deleted entry could not be removed", metadata: ["key": "\(key)"])
            }
        }
        // Archives holding the entry had their links ended with it; their files go now.
        try await housekeeping.deleteExpiredArchives(userID: user.id)
        return .noContent(.init())
    }

    func completeEntryUpload(_ input: Operations.CompleteEntryUpload.Input) async throws -> Operations.CompleteEntryUpload.Output
    {
        let user = try RequestUser.required()
        let entry = try await ownedEntry(input.path.id)
        guard entry.kind == .audio, let key = entry.audioKey else {
            throw APIError.conflict("Text entries have no audio to complete.")
        }
        let transcript = try input.body.flatMap { body -> ClientTranscript? in
            guard case .json(let json) = body, let sent = json.transcript else { return nil }
            return try ClientTranscript.validated(sent)
        }
        guard let claimed = try await claimCompletion(of: entry, userID: user.id) else {
            // Completed already (by this request's earlier attempt, say): answer the entry as it is now.
            return .ok(.init(body: .json(Self.schema(try await ownedEntry(input.path.id)))))
        }
        let uploaded = try await holdingCompletion(of: entry.id, claimedUntil: claimed) {
            let duration = try await checkUploadedAudio(of: entry, key: key)
            try transcript?.check(fitsWithin: duration ?? entry.durationSeconds)
            guard
                let marked = try await entries.markUploaded(
                    id: entry.id, userID: user.id, pipeline: pipeline, clientTranscript: transcript, durationSeconds: duration)
            else {
                throw APIError.notFound
            }
            return marked
        }
        logger.info(
            "entry uploaded",
            metadata: ["entry": "\(entry.id.lowercased)", "transcribed_by": "\(transcript?.engine ?? "server")"])
        return .ok(.init(body: .json(Self.schema(uploaded))))
    }

    func getEntryAudio(_ input: Operations.GetEntryAudio.Input) async throws -> Operations.GetEntryAudio.Output {
        let entry = try await ownedEntry(input.path.id)
        guard entry.kind == .audio, let key = entry.audioKey else { throw APIError.notFound }
        guard entry.status != .pendingUpload else { throw APIError.conflict("The audio has not been uploaded yet.") }
        let link = links.audioDownload(
            key: key, filename: entry.filename, contentType: entry.contentType ?? "application/octet-stream",
            accountVersion: try RequestUser.required().tokenVersion)
        return .ok(.init(body: .json(.init(url: link.url, expiresAt: link.expires))))
    }

    /// The signed-in user's live entry with this id; anything else is 404, whoever owns it.
    func ownedEntry(_ rawID: String) async throws -> EntryRecord {
        let user = try RequestUser.required()
        guard let entry = try await entries.entry(id: try Validation.id(rawID), userID: user.id) else { throw APIError.notFound }
        return entry
    }

    /// How long a completion claim lasts unless renewed: a node that dies while checking an upload holds it no longer.
    static let completionLease = 15_000

    /// Takes this entry's completion for this request, waiting while another request (on any node) holds it; answers
    /// until when it holds it, or nil once the entry no longer waits for its upload.
    private func claimCompletion(of entry: EntryRecord, userID: UUID) async throws -> Int? {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let now = StoredTime.now()
            if try await entries.claimCompletion(id: entry.id, userID: userID, until: now + Self.completionLease, now: now) {
                return now + Self.completionLease
            }
            guard try await ownedEntry(entry.id.lowercased).status == .pendingUpload else { return nil }
            guard ContinuousClock.now < deadline else {
                throw APIError.conflict("This upload is still being checked; try again in a moment.")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Runs `body` while renewing this request's completion claim every third of its lease, so that a long check
    /// keeps it and a crashed node's claim ends soon. When the claim is lost (the database did not answer for a whole
    /// lease, and another request took it), `body` is cancelled: two requests never check one upload at once. When
    /// `body` fails, the claim is given back.
    private func holdingCompletion<T: Sendable>(
        of id: UUID, claimedUntil: Int, _ body: @Sendable @escaping () async throws -> T
    ) async throws -> T {
        let lease = CompletionLease(until: claimedUntil)
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await lease.keepRenewing(id: id, in: entries, lease: Self.completionLease)
                    return nil
                }
                group.addTask { try await body() }
                let first = try await group.next() ?? nil
                group.cancelAll()
                guard let value = first else {
                    throw APIError.conflict("Checking this upload took too long and was taken over; try again in a moment.")
                }
                return value
            }
        } catch {
            try? await entries.releaseCompletion(id: id, held: lease.until)
            throw error
        }
    }

    /// Moves the newest upload into place, then rejects (and removes) it when it is missing, of the wrong size (asked
    /// first: a `HEAD` in a bucket), too long or not audio (ffprobe reads only the parts it needs, where the file lies);
    /// answers its duration when known. A recording players could not seek in (browsers' WebM, or
    /// any file that does not say how long it is) is made seekable.
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
                problem = tooLong(seconds)
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
    private func tooLong(_ seconds: Double) -> String {
        "The recording lasts \(spokenLength(seconds: Int(seconds.rounded(.up)))); this server keeps recordings of up to "
            + "\(spokenLength(seconds: maxRecordingSeconds))."
    }

    private func newEntry(from body: Components.Schemas.NewEntry) throws -> NewEntry {
        let kind = EntryKind(rawValue: body.kind.rawValue) ?? .audio
        var new = NewEntry(
            id: try Validation.id(body.id), createdAt: try Validation.recordingStart(body.createdAt),
            timeZone: try Validation.timeZone(body.tz), durationSeconds: try Validation.duration(body.durationS), kind: kind,
            language: try Validation.language(body.language))
        switch kind {
        case .text:
            guard let text = try Validation.text(body.text), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw APIError.unprocessable("A text entry needs a non-empty 'text'.")
            }
            guard body.sizeBytes == nil, body.contentType == nil else {
                throw APIError.unprocessable("'size_bytes' and 'content_type' are for audio entries.")
            }
            new.text = text
        case .audio:
            guard body.text == nil else { throw APIError.unprocessable("'text' is for text entries.") }
            guard let size = body.sizeBytes, size > 0 else {
                throw APIError.unprocessable("An audio entry needs 'size_bytes' > 0.")
            }
            guard size <= maxUploadBytes else { throw APIError.tooLarge(limit: maxUploadBytes) }
            guard new.durationSeconds <= Double(maxRecordingSeconds) else {
                throw APIError.unprocessable(tooLong(new.durationSeconds))
            }
            new.sizeBytes = size
            new.container = body.contentType.flatMap { AudioContainer(rawValue: $0.rawValue) } ?? .mp4
        }
        return new
    }

    static func schema(_ entry: EntryRecord) -> Components.Schemas.Entry {
        Components.Schemas.Entry(
            id: entry.id.lowercased, createdAt: entry.createdAt, tz: entry.timeZone, durationS: entry.durationSeconds,
            kind: Components.Schemas.EntryKind(rawValue: entry.kind.rawValue)!,
            status: Components.Schemas.EntryStatus(rawValue: entry.status.rawValue)!, failureReason: entry.failureReason,
            filename: entry.filename, contentType: entry.contentType, sizeBytes: entry.sizeBytes, language: entry.language,
            title: entry.title, tags: entry.tags, mood: entry.mood, transcriptRaw: entry.transcriptRaw,
            transcriptClean: entry.transcriptClean, noSpeech: entry.noSpeech, updatedAt: entry.updatedAt)
    }
}

extension APIHandler {
    func retranscribeEntry(_ input: Operations.RetranscribeEntry.Input) async throws -> Operations.RetranscribeEntry.Output {
        let user = try RequestUser.required()
        let entry = try await ownedEntry(input.path.id)
        try await limits.retranscription(user: user.id.lowercased)
        guard entry.kind == .audio else { throw APIError.conflict("Text entries have no audio to transcribe.") }
        guard entry.status != .pendingUpload else { throw APIError.conflict("The audio has not been uploaded yet.") }
        guard let queued = try await entries.requeueTranscription(id: entry.id, userID: user.id, pipeline: pipeline) else {
            throw APIError.notFound
        }
        return .accepted(.init(body: .json(Self.schema(queued))))
    }
}
