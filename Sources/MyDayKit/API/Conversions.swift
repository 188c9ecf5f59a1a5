import Foundation
import MyDayAPI
import MyDayModels
import MyDaySearch

/// Between the generated wire types and MyDayKit's own; the rest of the library never sees the generated ones.
enum Conversions {
    static func credentials(_ session: Components.Schemas.Session, now: Date) throws -> Credentials {
        Credentials(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            accessTokenExpiresAt: now.addingTimeInterval(TimeInterval(session.expiresIn)),
            account: try account(session.user))
    }

    static func account(_ user: Components.Schemas.User) throws -> Account {
        Account(
            id: try uuid(user.id), email: user.email, name: user.name, hasPassword: user.hasPassword, createdAt: user.createdAt,
            emailVerified: user.emailVerified)
    }

    static func entry(_ entry: Components.Schemas.Entry) throws -> ServerEntry {
        guard let kind = EntryKind(rawValue: entry.kind.rawValue), let status = EntryStatus(rawValue: entry.status.rawValue)
        else { throw MyDayClientError.unexpectedResponse("entry kind \(entry.kind) or status \(entry.status)") }
        return ServerEntry(
            id: try uuid(entry.id), createdAt: entry.createdAt, timeZone: entry.tz, duration: entry.durationS, kind: kind,
            status: status, failureReason: entry.failureReason, filename: entry.filename, contentType: entry.contentType,
            sizeBytes: entry.sizeBytes, language: entry.language, title: entry.title, tags: entry.tags, mood: entry.mood,
            transcriptRaw: entry.transcriptRaw, transcriptClean: entry.transcriptClean, noSpeech: entry.noSpeech,
            wordsEdited: entry.wordsEdited ?? false,
            reviewReason: entry.needsReview ? entry.reviewReason ?? "The words may be wrong." : nil,
            transcriptionPercent: entry.transcriptionPercent, updatedAt: entry.updatedAt)
    }

    static func newEntry(_ entry: NewEntry) -> Components.Schemas.NewEntry {
        Components.Schemas.NewEntry(
            id: entry.id.uuidString.lowercased(), createdAt: entry.createdAt, tz: entry.timeZone, durationS: entry.duration,
            kind: entry.kind == .audio ? .audio : .text, text: entry.text, sizeBytes: entry.sizeBytes,
            contentType: entry.container.flatMap { Components.Schemas.AudioContentType(rawValue: $0.rawValue) },
            language: entry.language, sourceSha256: entry.sourceSHA256)
    }

    static func transcript(_ transcript: DeviceTranscript) -> Components.Schemas.DeviceTranscript {
        Components.Schemas.DeviceTranscript(
            text: transcript.text, words: transcript.words.map { .init(word: $0.word, start: $0.start, end: $0.end) },
            engine: transcript.engine, language: transcript.language)
    }

    static func createdEntry(_ created: Components.Schemas.CreatedEntry) throws -> CreatedEntry {
        CreatedEntry(
            entry: try entry(created.entry),
            upload: try created.upload.map { upload in
                UploadTarget(
                    url: try url(upload.url), headers: upload.headers.additionalProperties, expiresAt: upload.expiresAt)
            })
    }

    static func changes(_ page: Components.Schemas.EntryPage) throws -> EntryChanges {
        EntryChanges(
            entries: try page.entries.map(entry), deletedIDs: try page.deletedIds.map(uuid), nextCursor: page.nextCursor,
            hasMore: page.hasMore)
    }

    static func searchPage(_ results: Components.Schemas.SearchResults) throws -> SearchPage {
        let interpreted = results.interpreted
        var dates: LocalDayRange?
        if let from = interpreted.from.flatMap(LocalDay.init(iso:)), let to = interpreted.to.flatMap(LocalDay.init(iso:)) {
            dates = LocalDayRange(from: from, to: to)
        }
        return SearchPage(
            hits: try results.hits.map { hit in
                SearchHit(
                    entry: try entry(hit.entry),
                    highlights: hit.highlights.compactMap { highlight in
                        SearchHighlight.Field(rawValue: highlight.field.rawValue).map { field in
                            SearchHighlight(
                                field: field,
                                highlight: Highlight(
                                    text: highlight.text,
                                    matches: highlight.matches.map { $0.start..<($0.start + $0.length) }))
                        }
                    })
            }, nextCursor: results.hasMore ? results.nextCursor : nil, datePhrase: interpreted.datePhrase, dates: dates)
    }

    static func reauthentication(_ proof: SignInProof) -> Components.Schemas.Reauthentication {
        switch proof {
        case .password(let password):
            .init(password: password)
        case .provider(let provider, let token, let nonce):
            .init(provider: Components.Schemas.IdentityProvider(rawValue: provider.rawValue), token: token, nonce: nonce)
        }
    }

    static func link(_ link: Components.Schemas.SignedLink) throws -> SignedLink {
        SignedLink(url: try url(link.url), expiresAt: link.expiresAt)
    }

    static func statistics(_ stats: Components.Schemas.Stats) -> DiaryStatistics {
        DiaryStatistics(
            timeZone: stats.tz, totalEntries: stats.totalEntries, totalDuration: stats.totalDurationS, words: stats.words,
            currentStreakDays: stats.currentStreakDays, longestStreakDays: stats.longestStreakDays,
            months: stats.months.map { .init(month: $0.month, entries: $0.entries, duration: $0.durationS) },
            storageUsedBytes: stats.storageUsedBytes, storageQuotaBytes: stats.storageQuotaBytes)
    }

    static func export(_ export: Components.Schemas.Export) throws -> ExportStatus {
        guard let state = ExportStatus.State(rawValue: export.status.rawValue) else {
            throw MyDayClientError.unexpectedResponse("export status \(export.status)")
        }
        return ExportStatus(
            id: try uuid(export.id), from: export.from, to: export.to, state: state, failureReason: export.failureReason,
            entries: export.entries, sizeBytes: export.sizeBytes, downloadURL: try export.downloadUrl.map(url),
            expiresAt: export.expiresAt, mailedTo: export.mailedTo)
    }

    static func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw MyDayClientError.unexpectedResponse("id \(text)") }
        return id
    }

    private static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw MyDayClientError.unexpectedResponse("URL \(text)") }
        return url
    }
}
