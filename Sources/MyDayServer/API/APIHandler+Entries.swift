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

    func getEntry(_ input: Operations.GetEntry.Input) async throws -> Operations.GetEntry.Output {
        .ok(.init(body: .json(Self.schema(try await ownedEntry(input.path.id)))))
    }

    func updateEntry(_ input: Operations.UpdateEntry.Input) async throws -> Operations.UpdateEntry.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        let id = try Validation.id(input.path.id)
        var edit = EntryEdit(
            title: try Validation.title(body.title), text: try Validation.text(body.text), tags: try Validation.tags(body.tags),
            mood: try Validation.mood(body.mood))
        let createdAt = try body.createdAt.map { try Validation.recordingStart($0) }
        let zone = try body.tz.map { try Validation.timeZone($0) }
        guard !edit.isEmpty || createdAt != nil || zone != nil else {
            throw APIError.unprocessable("Name at least one of 'title', 'text', 'tags', 'mood', 'created_at' or 'tz'.")
        }
        if edit.text != nil || createdAt != nil || zone != nil {
            let current = try await ownedEntry(input.path.id)
            if edit.text != nil {
                guard current.status == .transcribed || current.status == .failed else {
                    throw APIError.conflict("The transcript is not ready yet; edit its text once it is.")
                }
            }
            if createdAt != nil || zone != nil {
                // Only the part named changes: a new zone alone keeps the moment (and may change its day).
                edit.moment = EntryMoment(
                    createdAt: createdAt ?? current.createdAt, timeZone: zone?.identifier ?? current.timeZone)
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
        let deletion = try await entries.moveToRecentlyDeleted(
            id: try Validation.id(input.path.id), userID: user.id, retention: EntryStore.productionRetention)
        switch deletion {
        case .notFound: throw APIError.notFound
        case .kept: break
        case .erased(let key): await removeAudio(key)
        }
        // Archives holding the entry had their links ended with it; their files go now.
        try await housekeeping.deleteExpiredArchives(userID: user.id)
        return .noContent(.init())
    }

    /// Removes an erased entry's audio; a failure is logged, not answered (the entry is gone either way).
    func removeAudio(_ key: String?) async {
        guard let key else { return }
        do {
            try await blobs.deleteAudio(key: key)
        } catch {
            logger.error("the audio of a deleted entry could not be removed", metadata: ["key": "\(key)"])
        }
    }

    func completeEntryUpload(_ input: Operations.CompleteEntryUpload.Input) async throws -> Operations.CompleteEntryUpload.Output
    {
        let user = try RequestUser.required()
        let entry = try await ownedEntry(input.path.id)
        let json: Components.Schemas.CompleteUpload? = input.body.map { body in
            switch body {
            case .json(let json): json
            }
        }
        let transcript = try json?.transcript.map(ClientTranscript.validated)
        guard (json?.fileName?.count ?? 0) <= 255 else { throw APIError.unprocessable("'file_name' is at most 255 characters.") }
        let recordingTimeFrom = json?.readRecordingTime == true ? json?.fileName ?? "" : nil
        // Nil when it was completed already (by this request's earlier attempt, say): the entry as it is now.
        guard
            let uploaded = try await uploads.complete(
                entry, userID: user.id, transcript: transcript, recordingTimeFrom: recordingTimeFrom)
        else {
            return .ok(.init(body: .json(Self.schema(try await ownedEntry(input.path.id)))))
        }
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
    func getEntryWords(_ input: Operations.GetEntryWords.Input) async throws -> Operations.GetEntryWords.Output {
        let user = try RequestUser.required()
        guard let found = try await entries.heardWords(id: try Validation.id(input.path.id), userID: user.id) else {
            throw APIError.notFound
        }
        // A typed entry was never heard: it has no words to follow.
        let words =
            found.entry.kind == .text ? [] : EntryWords.align(text: found.entry.transcriptClean ?? "", heard: found.words)
        return .ok(
            .init(
                body: .json(
                    .init(words: words.map { .init(text: $0.text, start: $0.start, end: $0.end, p: $0.probability) }))))
    }

    func getEntrySuggestions(_ input: Operations.GetEntrySuggestions.Input) async throws
        -> Operations.GetEntrySuggestions.Output
    {
        let entry = try await ownedEntry(input.path.id)
        let text = entry.noSpeech ? "" : entry.transcriptClean ?? ""
        var suggestions = EntrySuggestions.make(
            text: text, language: entry.language, existingTags: try await entries.tagsInUse(userID: entry.userID))
        var byModel: Bool?
        if let writer = parts.groundedWriter, !text.isEmpty, let title = await writer.title(of: text) {
            suggestions.title = title
            byModel = true
        }
        return .ok(
            .init(
                body: .json(
                    .init(title: suggestions.title, titleByModel: byModel, tags: suggestions.tags, mood: suggestions.mood))))
    }

    func ownedEntry(_ rawID: String) async throws -> EntryRecord {
        let user = try RequestUser.required()
        guard let entry = try await entries.entry(id: try Validation.id(rawID), userID: user.id) else { throw APIError.notFound }
        return entry
    }

    private func newEntry(from body: Components.Schemas.NewEntry) throws -> NewEntry {
        let kind = EntryKind(rawValue: body.kind.rawValue) ?? .audio
        var new = NewEntry(
            id: try Validation.id(body.id), createdAt: try Validation.recordingStart(body.createdAt),
            timeZone: try Validation.timeZone(body.tz), durationSeconds: try Validation.duration(body.durationS), kind: kind,
            language: try Validation.language(body.language), sourceSHA256: try Validation.sourceSHA256(body.sourceSha256))
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
                throw APIError.unprocessable(UploadCompletion.tooLong(new.durationSeconds, limit: maxRecordingSeconds))
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
            transcriptClean: entry.transcriptClean, noSpeech: entry.noSpeech, needsReview: entry.reviewReason != nil,
            reviewReason: entry.reviewReason, transcriptionPercent: entry.transcriptionPercent, updatedAt: entry.updatedAt,
            wordsEdited: entry.wordsEdited ? true : nil)
    }
}

extension APIHandler {
    func retranscribeEntry(_ input: Operations.RetranscribeEntry.Input) async throws -> Operations.RetranscribeEntry.Output {
        let user = try RequestUser.required()
        let entry = try await ownedEntry(input.path.id)
        try await limits.retranscription(user: user.id.lowercased)
        guard let queued = try await uploads.transcribeAgain(entry, userID: user.id) else {
            throw APIError.notFound
        }
        return .accepted(.init(body: .json(Self.schema(queued))))
    }
}
