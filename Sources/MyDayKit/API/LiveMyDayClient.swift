import Foundation
import MyDayAPI
import MyDayModels
import OpenAPIRuntime

/// The `MyDayClient` that talks to a real server, through the client generated from `openapi.yaml`.
public struct LiveMyDayClient: MyDayClient {
    /// Where the tokens live and how they are refreshed; shared by everything that calls the server.
    public let session: SessionManager
    private let client: Client
    /// The same client with a transport whose deadline outlasts an access token, for the change feed.
    private let feedClient: Client
    private let now: @Sendable () -> Date

    /// A client for the server at `serverURL` (for example `http://127.0.0.1:8080`), keeping its session in `credentials`.
    public init(
        serverURL: URL, credentials: CredentialStore, transport: (any ClientTransport)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        let feedTransport = transport ?? DefaultTransport.make(deadline: .seconds(20 * 60))
        let transport = transport ?? DefaultTransport.make()
        let configuration = Configuration(dateTranscoder: RFC3339DateTranscoder())
        let unauthenticated = Client(
            serverURL: serverURL, configuration: configuration, transport: transport,
            middlewares: [ErrorResponseMiddleware()])
        let session = SessionManager(store: credentials, now: now) { refreshToken in
            let output = try await unwrapping {
                try await unauthenticated.refreshSession(body: .json(.init(refreshToken: refreshToken)))
            }
            guard case .ok(let ok) = output else { throw MyDayClientError.unexpectedResponse("refreshSession") }
            return try Conversions.credentials(try ok.body.json, now: now())
        }
        self.session = session
        self.now = now
        self.client = Client(
            serverURL: serverURL, configuration: configuration, transport: transport,
            middlewares: [ErrorResponseMiddleware(), BearerTokenMiddleware(session: session)])
        self.feedClient = Client(
            serverURL: serverURL, configuration: configuration, transport: feedTransport,
            middlewares: [ErrorResponseMiddleware(), BearerTokenMiddleware(session: session)])
    }

    public func register(email: String, password: String) async throws -> Account {
        let output = try await call { try await client.registerWithEmail(body: .json(.init(email: email, password: password))) }
        guard case .created(let created) = output else { throw unexpected(output) }
        return try await begin(try created.body.json)
    }

    public func login(email: String, password: String) async throws -> Account {
        let output = try await call { try await client.loginWithEmail(body: .json(.init(email: email, password: password))) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try await begin(try ok.body.json)
    }

    public func signIn(
        with provider: IdentityProvider, token: String, nonce: String?, name: String?, authorizationCode: String?
    ) async throws -> Account {
        switch provider {
        case .apple:
            let output = try await call {
                try await client.signInWithApple(
                    body: .json(.init(identityToken: token, nonce: nonce, name: name, authorizationCode: authorizationCode)))
            }
            switch output {
            case .ok(let ok): return try await begin(try ok.body.json)
            case .created(let created): return try await begin(try created.body.json)
            default: throw unexpected(output)
            }
        case .google:
            let output = try await call { try await client.signInWithGoogle(body: .json(.init(idToken: token, nonce: nonce))) }
            switch output {
            case .ok(let ok): return try await begin(try ok.body.json)
            case .created(let created): return try await begin(try created.body.json)
            default: throw unexpected(output)
            }
        }
    }

    public func logout() async throws {
        let refreshToken = try await session.credentials()?.refreshToken
        // Signed out here first: no request made while the server is asked (an upload the queue starts) carries the
        // session any more, and a server out of reach must not keep the person signed in on this device.
        try await session.end()
        if let refreshToken {
            _ = try? await call { try await client.logout(body: .json(.init(refreshToken: refreshToken))) }
        }
    }

    public func logoutEverywhere() async throws {
        let output = try await call { try await client.logoutAll() }
        guard case .noContent = output else { throw unexpected(output) }
        try await session.end()
    }

    public func me() async throws -> Account {
        let output = try await call { try await client.getMe() }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.account(try ok.body.json)
    }

    public func maxRecordingSeconds() async throws -> Int? {
        let output = try await call { try await client.getConfig() }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try ok.body.json.maxRecordingSeconds
    }

    public func stats(timeZone: String) async throws -> DiaryStatistics {
        let output = try await call { try await client.getStats(query: .init(tz: timeZone)) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return Conversions.statistics(try ok.body.json)
    }

    public func createEntry(_ entry: NewEntry) async throws -> CreatedEntry {
        let output = try await call { try await client.createEntry(body: .json(Conversions.newEntry(entry))) }
        switch output {
        case .ok(let ok): return try Conversions.createdEntry(try ok.body.json)
        case .created(let created): return try Conversions.createdEntry(try created.body.json)
        default: throw unexpected(output)
        }
    }

    public func completeUpload(of id: UUID, transcript: DeviceTranscript?) async throws -> ServerEntry {
        let body = transcript.map {
            Operations.CompleteEntryUpload.Input.Body.json(.init(transcript: Conversions.transcript($0)))
        }
        let output = try await call {
            try await client.completeEntryUpload(path: .init(id: id.uuidString.lowercased()), body: body)
        }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.entry(try ok.body.json)
    }

    public func changes(since cursor: String?, limit: Int) async throws -> EntryChanges {
        let output = try await call { try await client.listEntries(query: .init(since: cursor, limit: limit)) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.changes(try ok.body.json)
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        let filters = request.filters
        let query = Operations.SearchEntries.Input.Query(
            q: request.text, from: filters.from?.description, to: filters.to?.description,
            tag: filters.tags.isEmpty ? nil : filters.tags, mood: filters.moods.isEmpty ? nil : filters.moods,
            kind: filters.kind.flatMap { Components.Schemas.EntryKind(rawValue: $0.rawValue) },
            tz: request.timeZone.identifier, readDates: request.readsDates, cursor: request.cursor, limit: request.limit)
        let output = try await call { try await client.searchEntries(query: query) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.searchPage(try ok.body.json)
    }

    public func changeFeed() async throws -> AsyncThrowingStream<Int, any Error> {
        let output = try await call { try await feedClient.followChanges() }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        let events = try ok.body.textEventStream.asDecodedServerSentEvents()
        return AsyncThrowingStream { continuation in
            let reading = Task {
                do {
                    for try await event in events where event.event == "change" {
                        guard let data = event.data, let change = try? JSONDecoder().decode(Change.self, from: Data(data.utf8))
                        else { continue }
                        continuation.yield(change.changeSeq)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }

    /// What a `change` event of the feed carries.
    private struct Change: Decodable {
        let changeSeq: Int
        enum CodingKeys: String, CodingKey { case changeSeq = "change_seq" }
    }

    public func entry(_ id: UUID) async throws -> ServerEntry {
        let output = try await call { try await client.getEntry(path: .init(id: id.uuidString.lowercased())) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.entry(try ok.body.json)
    }

    public func edit(_ id: UUID, _ edit: EntryEdit) async throws -> ServerEntry {
        let body = Components.Schemas.EntryEdit(
            title: edit.title, text: edit.text, tags: edit.tags, mood: edit.mood, createdAt: edit.moment?.createdAt,
            tz: edit.moment?.timeZone)
        let output = try await call {
            try await client.updateEntry(path: .init(id: id.uuidString.lowercased()), body: .json(body))
        }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.entry(try ok.body.json)
    }

    public func deleteEntry(_ id: UUID) async throws {
        let output = try await call { try await client.deleteEntry(path: .init(id: id.uuidString.lowercased())) }
        guard case .noContent = output else { throw unexpected(output) }
    }

    public func recentlyDeleted() async throws -> [DeletedEntry] {
        let output = try await call { try await client.listRecentlyDeleted() }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try ok.body.json.entries.map {
            DeletedEntry(entry: try Conversions.entry($0.entry), deletedAt: $0.deletedAt, purgeAt: $0.purgeAt)
        }
    }

    public func restoreEntry(_ id: UUID) async throws -> ServerEntry {
        let output = try await call { try await client.restoreEntry(path: .init(id: id.uuidString.lowercased())) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.entry(try ok.body.json)
    }

    public func eraseEntry(_ id: UUID) async throws {
        let output = try await call { try await client.eraseEntry(path: .init(id: id.uuidString.lowercased())) }
        guard case .noContent = output else { throw unexpected(output) }
    }

    public func retranscribe(_ id: UUID) async throws -> ServerEntry {
        let output = try await call { try await client.retranscribeEntry(path: .init(id: id.uuidString.lowercased())) }
        guard case .accepted(let accepted) = output else { throw unexpected(output) }
        return try Conversions.entry(try accepted.body.json)
    }

    public func audioLink(for id: UUID) async throws -> SignedLink {
        let output = try await call { try await client.getEntryAudio(path: .init(id: id.uuidString.lowercased())) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.link(try ok.body.json)
    }

    public func requestExport(from: String, to: String, timeZone: String, proof: SignInProof?) async throws -> ExportStatus {
        let proof = proof.map(Conversions.reauthentication)
        // Every format: the person's export holds the markdown pages and entries.json (with word timings) as well.
        let output = try await call {
            try await client.createExport(
                body: .json(.init(from: from, to: to, tz: timeZone, reauthentication: proof, formats: [.markdown, .json])))
        }
        guard case .accepted(let accepted) = output else { throw unexpected(output) }
        return try Conversions.export(try accepted.body.json)
    }

    public func export(_ id: UUID) async throws -> ExportStatus {
        let output = try await call { try await client.getExport(path: .init(id: id.uuidString.lowercased())) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try Conversions.export(try ok.body.json)
    }

    public func deleteExport(_ id: UUID) async throws {
        let output = try await call { try await client.deleteExport(path: .init(id: id.uuidString.lowercased())) }
        guard case .noContent = output else { throw unexpected(output) }
    }

    public func forgotPassword(email: String) async throws {
        let output = try await call { try await client.forgotPassword(body: .json(.init(email: email))) }
        guard case .accepted = output else { throw unexpected(output) }
    }

    public func resetPassword(token: String, newPassword: String) async throws -> Account {
        let output = try await call {
            try await client.resetPassword(body: .json(.init(token: token, newPassword: newPassword)))
        }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try await begin(try ok.body.json)
    }

    public func verifyEmail(token: String) async throws -> String {
        let output = try await call { try await client.verifyEmail(body: .json(.init(token: token))) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try ok.body.json.email
    }

    public func resendVerificationEmail() async throws {
        let output = try await call { try await client.resendVerificationEmail() }
        guard case .accepted = output else { throw unexpected(output) }
    }

    public func changeEmail(to email: String, proof: SignInProof?) async throws {
        let proof = proof.map(Conversions.reauthentication)
        let output = try await call { try await client.changeEmail(body: .json(.init(email: email, reauthentication: proof))) }
        guard case .accepted = output else { throw unexpected(output) }
    }

    public func deleteAccount(proof: SignInProof?) async throws {
        let body = proof.map { Operations.DeleteMe.Input.Body.json(Conversions.reauthentication($0)) }
        let output = try await call { try await client.deleteMe(body: body) }
        guard case .accepted = output else { throw unexpected(output) }
        try await session.end()
    }

    public func words(of id: UUID) async throws -> [TimedWord] {
        let output = try await call { try await client.getEntryWords(path: .init(id: id.uuidString.lowercased())) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try ok.body.json.words.map { TimedWord(text: $0.text, start: $0.start, end: $0.end, probability: $0.p) }
    }

    public func suggestions(for id: UUID) async throws -> Suggestions {
        let output = try await call { try await client.getEntrySuggestions(path: .init(id: id.uuidString.lowercased())) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        let body = try ok.body.json
        return Suggestions(title: body.title, tags: body.tags, mood: body.mood)
    }

    public func day(_ date: String, timeZone: String) async throws -> DayPage {
        let output = try await call { try await client.getDay(path: .init(date: date), query: .init(tz: timeZone)) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        let page = try ok.body.json
        return DayPage(
            date: page.date, entries: try page.entries.map(Conversions.entry), tags: page.tags, mood: page.mood,
            digest: try page.digest.map {
                DayPage.Sentence(
                    text: $0.text, entryID: try Conversions.uuid($0.entryId), start: $0.start, byModel: $0.byModel ?? false)
            })
    }

    public func onThisDay(_ date: String?, timeZone: String) async throws -> [PastDay] {
        let output = try await call { try await client.getOnThisDay(query: .init(tz: timeZone, date: date)) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try ok.body.json.days.map {
            PastDay(
                date: $0.date, unit: PastDay.Unit(rawValue: $0.ago.unit.rawValue) ?? .year, count: $0.ago.count,
                entries: try $0.entries.map(Conversions.entry))
        }
    }

    public func insights(from: String?, to: String?, timeZone: String) async throws -> Insights {
        let output = try await call { try await client.getInsights(query: .init(tz: timeZone, from: from, to: to)) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        let body = try ok.body.json
        func mentions(_ list: [Components.Schemas.Mention]) -> [Insights.Mention] {
            list.map { Insights.Mention(text: $0.text, count: $0.count) }
        }
        return Insights(
            from: body.from, to: body.to,
            days: body.days.map {
                Insights.Day(date: $0.date, entries: $0.entries, seconds: $0.seconds, words: $0.words, mood: $0.mood)
            },
            currentStreak: body.currentStreakDays, longestStreak: body.longestStreakDays,
            people: mentions(body.mentions.people), places: mentions(body.mentions.places),
            topics: mentions(body.mentions.topics))
    }

    public func question(timeZone: String) async throws -> DiaryQuestion? {
        let output = try await call { try await client.getQuestion(query: .init(tz: timeZone)) }
        switch output {
        case .ok(let ok):
            let body = try ok.body.json
            return DiaryQuestion(
                text: body.text, phrase: body.phrase, entryID: try Conversions.uuid(body.entryId), date: body.date)
        case .noContent:
            return nil
        default:
            throw unexpected(output)
        }
    }

    public func reminder() async throws -> ReminderSettings? {
        do {
            let output = try await call { try await client.getReminder() }
            guard case .ok(let ok) = output else { throw unexpected(output) }
            return Self.reminder(try ok.body.json)
        } catch MyDayClientError.server(status: 404, _, _, _) {
            return nil
        }
    }

    public func setReminder(_ reminder: ReminderSettings) async throws -> ReminderSettings {
        let body = Components.Schemas.Reminder(
            time: reminder.time, tz: reminder.timeZone,
            days: reminder.days.sorted().compactMap { .init(rawValue: $0.rawValue) }, email: reminder.email)
        let output = try await call { try await client.setReminder(body: .json(body)) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return Self.reminder(try ok.body.json)
    }

    public func deleteReminder() async throws {
        let output = try await call { try await client.deleteReminder() }
        guard case .noContent = output else { throw unexpected(output) }
    }

    public func notifiedBrowsers() async throws -> [NotifiedBrowser] {
        let output = try await call { try await client.listPushSubscriptions() }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return try ok.body.json.subscriptions.map { subscription in
            NotifiedBrowser(
                id: try Conversions.uuid(subscription.id), pushService: URL(string: subscription.endpoint)?.host ?? "",
                since: subscription.createdAt)
        }
    }

    public func stopNotifying(_ browser: UUID) async throws {
        let output = try await call {
            try await client.deletePushSubscription(path: .init(id: browser.uuidString.lowercased()))
        }
        guard case .noContent = output else { throw unexpected(output) }
    }

    private static func reminder(_ body: Components.Schemas.Reminder) -> ReminderSettings {
        let parts = body.time.split(separator: ":").compactMap { Int($0) }
        return ReminderSettings(
            hour: parts.first ?? 21, minute: parts.count > 1 ? parts[1] : 0, timeZone: body.tz,
            days: Set(body.days.compactMap { ReminderSettings.Weekday(rawValue: $0.rawValue) }), email: body.email ?? false)
    }

    public func vocabulary() async throws -> [VocabularyWord] {
        let output = try await call { try await client.getVocabulary() }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return Self.vocabulary(try ok.body.json)
    }

    public func replaceVocabulary(_ words: [String]) async throws -> [VocabularyWord] {
        let output = try await call { try await client.replaceVocabulary(body: .json(.init(words: words))) }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        return Self.vocabulary(try ok.body.json)
    }

    private static func vocabulary(_ body: Components.Schemas.Vocabulary) -> [VocabularyWord] {
        body.words.map { VocabularyWord(text: $0.text, source: VocabularyWord.Source(rawValue: $0.source.rawValue) ?? .you) }
    }

    public func signInMethods() async throws -> [SignInMethod] {
        let account = try await me()
        let output = try await call { try await client.listIdentities() }
        guard case .ok(let ok) = output else { throw unexpected(output) }
        let linked = try ok.body.json.compactMap { identity -> SignInMethod? in
            guard let provider = IdentityProvider(rawValue: identity.provider.rawValue) else { return nil }
            return SignInMethod(kind: .provider(provider), email: identity.email)
        }
        return (account.hasPassword ? [SignInMethod(kind: .password, email: account.email)] : []) + linked
    }

    public func removeSignInMethod(_ kind: SignInMethod.Kind) async throws {
        switch kind {
        case .password:
            let output = try await call { try await client.removePassword() }
            guard case .noContent = output else { throw unexpected(output) }
        case .provider(let provider):
            let output = try await call {
                try await client.unlinkIdentity(path: .init(provider: .init(rawValue: provider.rawValue)!))
            }
            guard case .noContent = output else { throw unexpected(output) }
        }
    }

    private func begin(_ session: Components.Schemas.Session) async throws -> Account {
        let credentials = try Conversions.credentials(session, now: now())
        try await self.session.begin(credentials)
        return credentials.account
    }

    private func call<Output>(_ operation: () async throws -> Output) async throws -> Output {
        try await unwrapping(operation)
    }

    private func unexpected(_ output: some Any) -> MyDayClientError {
        .unexpectedResponse(String(describing: output).prefix(200).description)
    }
}

/// Runs a generated operation and rethrows what a middleware or transport threw, not the runtime's wrapper.
private func unwrapping<Output>(_ operation: () async throws -> Output) async throws -> Output {
    do {
        return try await operation()
    } catch let error as ClientError {
        throw error.underlyingError
    }
}
