import Foundation
import MyDayKit
import MyDayModels
import Testing

/// A `MyDayClient` whose every call fails the test unless the test scripted it.
struct FakeMyDayClient: MyDayClient {
    var onCreateEntry: @Sendable (NewEntry) async throws -> CreatedEntry = unexpected("createEntry")
    var onCompleteUpload: @Sendable (UUID, DeviceTranscript?) async throws -> ServerEntry = unexpected("completeUpload")
    var onChanges: @Sendable (String?, Int) async throws -> EntryChanges = unexpected("changes")
    var onSearch: @Sendable (SearchRequest) async throws -> SearchPage = unexpected("search")
    var onChangeFeed: @Sendable () async throws -> AsyncThrowingStream<Int, any Error> = unexpected("changeFeed")
    var onEntry: @Sendable (UUID) async throws -> ServerEntry = unexpected("entry")
    var onEdit: @Sendable (UUID, EntryEdit) async throws -> ServerEntry = unexpected("edit")
    var onDeleteEntry: @Sendable (UUID) async throws -> Void = unexpected("deleteEntry")
    var onRequestExport: @Sendable (String, String, String, SignInProof?) async throws -> ExportStatus = unexpected(
        "requestExport")
    var onExport: @Sendable (UUID) async throws -> ExportStatus = unexpected("export")
    var onDeleteExport: @Sendable (UUID) async throws -> Void = unexpected("deleteExport")
    var onMe: @Sendable () async throws -> Account = unexpected("me")
    var onMaxRecordingSeconds: @Sendable () async throws -> Int? = unexpected("maxRecordingSeconds")
    var onForgotPassword: @Sendable (String) async throws -> Void = unexpected("forgotPassword")
    var onVerifyEmail: @Sendable (String) async throws -> String = unexpected("verifyEmail")
    var onResendVerification: @Sendable () async throws -> Void = unexpected("resendVerificationEmail")
    var onStats: @Sendable (String) async throws -> DiaryStatistics = unexpected("stats")
    var onRetranscribe: @Sendable (UUID) async throws -> ServerEntry = unexpected("retranscribe")
    var onRecentlyDeleted: @Sendable () async throws -> [DeletedEntry] = unexpected("recentlyDeleted")
    var onRestoreEntry: @Sendable (UUID) async throws -> ServerEntry = unexpected("restoreEntry")
    var onEraseEntry: @Sendable (UUID) async throws -> Void = unexpected("eraseEntry")
    var onAudioLink: @Sendable (UUID) async throws -> SignedLink = unexpected("audioLink")
    var onLogout: @Sendable () async throws -> Void = unexpected("logout")
    var onLogoutEverywhere: @Sendable () async throws -> Void = unexpected("logoutEverywhere")
    var onDeleteAccount: @Sendable (SignInProof?) async throws -> Void = unexpected("deleteAccount")
    var onChangeEmail: @Sendable (String, SignInProof?) async throws -> Void = unexpected("changeEmail")
    var onSignInMethods: @Sendable () async throws -> [SignInMethod] = unexpected("signInMethods")
    var onRemoveSignInMethod: @Sendable (SignInMethod.Kind) async throws -> Void = unexpected("removeSignInMethod")
    var onWords: @Sendable (UUID) async throws -> [TimedWord] = unexpected("words")
    var onDay: @Sendable (String, String) async throws -> DayPage = unexpected("day")
    var onOnThisDay: @Sendable (String?, String) async throws -> [PastDay] = unexpected("onThisDay")
    var onInsights: @Sendable (String?, String?, String) async throws -> Insights = unexpected("insights")
    var onQuestion: @Sendable (String) async throws -> DiaryQuestion? = unexpected("question")
    var onReminder: @Sendable () async throws -> ReminderSettings? = unexpected("reminder")
    var onSetReminder: @Sendable (ReminderSettings) async throws -> ReminderSettings = unexpected("setReminder")
    var onDeleteReminder: @Sendable () async throws -> Void = unexpected("deleteReminder")
    var onNotifiedBrowsers: @Sendable () async throws -> [NotifiedBrowser] = unexpected("notifiedBrowsers")
    var onStopNotifying: @Sendable (UUID) async throws -> Void = unexpected("stopNotifying")
    var onSuggestions: @Sendable (UUID) async throws -> Suggestions = unexpected("suggestions")
    var onVocabulary: @Sendable () async throws -> [VocabularyWord] = unexpected("vocabulary")
    var onReplaceVocabulary: @Sendable ([String]) async throws -> [VocabularyWord] = unexpected("replaceVocabulary")

    func register(email: String, password: String) async throws -> Account { try await unexpected("register")(()) }
    func login(email: String, password: String) async throws -> Account { try await unexpected("login")(()) }
    func signIn(
        with provider: IdentityProvider, token: String, nonce: String?, name: String?, authorizationCode: String?
    ) async throws -> Account {
        try await unexpected("signIn")(())
    }
    func logout() async throws { try await onLogout() }
    func logoutEverywhere() async throws { try await onLogoutEverywhere() }
    func me() async throws -> Account { try await onMe() }
    func maxRecordingSeconds() async throws -> Int? { try await onMaxRecordingSeconds() }
    func stats(timeZone: String) async throws -> DiaryStatistics { try await onStats(timeZone) }
    func createEntry(_ entry: NewEntry) async throws -> CreatedEntry { try await onCreateEntry(entry) }
    func completeUpload(of id: UUID, transcript: DeviceTranscript?) async throws -> ServerEntry {
        try await onCompleteUpload(id, transcript)
    }
    func changes(since cursor: String?, limit: Int) async throws -> EntryChanges { try await onChanges(cursor, limit) }
    func search(_ request: SearchRequest) async throws -> SearchPage { try await onSearch(request) }
    func changeFeed() async throws -> AsyncThrowingStream<Int, any Error> { try await onChangeFeed() }
    func entry(_ id: UUID) async throws -> ServerEntry { try await onEntry(id) }
    func edit(_ id: UUID, _ edit: EntryEdit) async throws -> ServerEntry { try await onEdit(id, edit) }
    func deleteEntry(_ id: UUID) async throws { try await onDeleteEntry(id) }
    func retranscribe(_ id: UUID) async throws -> ServerEntry { try await onRetranscribe(id) }
    func recentlyDeleted() async throws -> [DeletedEntry] { try await onRecentlyDeleted() }
    func restoreEntry(_ id: UUID) async throws -> ServerEntry { try await onRestoreEntry(id) }
    func eraseEntry(_ id: UUID) async throws { try await onEraseEntry(id) }
    func changeEmail(to email: String, proof: SignInProof?) async throws { try await onChangeEmail(email, proof) }
    func audioLink(for id: UUID) async throws -> SignedLink { try await onAudioLink(id) }
    func words(of id: UUID) async throws -> [TimedWord] { try await onWords(id) }
    func day(_ date: String, timeZone: String) async throws -> DayPage { try await onDay(date, timeZone) }
    func suggestions(for id: UUID) async throws -> Suggestions { try await onSuggestions(id) }
    func question(timeZone: String) async throws -> DiaryQuestion? { try await onQuestion(timeZone) }
    func reminder() async throws -> ReminderSettings? { try await onReminder() }
    func setReminder(_ reminder: ReminderSettings) async throws -> ReminderSettings { try await onSetReminder(reminder) }
    func deleteReminder() async throws { try await onDeleteReminder() }
    func notifiedBrowsers() async throws -> [NotifiedBrowser] { try await onNotifiedBrowsers() }
    func stopNotifying(_ browser: UUID) async throws { try await onStopNotifying(browser) }
    func onThisDay(_ date: String?, timeZone: String) async throws -> [PastDay] { try await onOnThisDay(date, timeZone) }
    func insights(from: String?, to: String?, timeZone: String) async throws -> Insights {
        try await onInsights(from, to, timeZone)
    }
    func vocabulary() async throws -> [VocabularyWord] { try await onVocabulary() }
    func replaceVocabulary(_ words: [String]) async throws -> [VocabularyWord] { try await onReplaceVocabulary(words) }
    func requestExport(from: String, to: String, timeZone: String, proof: SignInProof?) async throws -> ExportStatus {
        try await onRequestExport(from, to, timeZone, proof)
    }
    func export(_ id: UUID) async throws -> ExportStatus { try await onExport(id) }
    func deleteExport(_ id: UUID) async throws { try await onDeleteExport(id) }
    func forgotPassword(email: String) async throws { try await onForgotPassword(email) }
    func resetPassword(token: String, newPassword: String) async throws -> Account { try await unexpected("resetPassword")(()) }
    func verifyEmail(token: String) async throws -> String { try await onVerifyEmail(token) }
    func resendVerificationEmail() async throws { try await onResendVerification() }
    func deleteAccount(proof: SignInProof?) async throws { try await onDeleteAccount(proof) }
    func signInMethods() async throws -> [SignInMethod] { try await onSignInMethods() }
    func removeSignInMethod(_ kind: SignInMethod.Kind) async throws { try await onRemoveSignInMethod(kind) }
}

/// A call the test did not expect: recorded as a test failure, and thrown so the code under test stops.
struct UnexpectedCall: Error {
    let name: String
}

func unexpected<Input, Output>(_ name: String) -> @Sendable (Input) async throws -> Output {
    { _ in
        Issue.record("unexpected call to \(name)")
        throw UnexpectedCall(name: name)
    }
}

func unexpected<A, B, Output>(_ name: String) -> @Sendable (A, B) async throws -> Output {
    { _, _ in
        Issue.record("unexpected call to \(name)")
        throw UnexpectedCall(name: name)
    }
}

func unexpected<A, B, C, Output>(_ name: String) -> @Sendable (A, B, C) async throws -> Output {
    { _, _, _ in
        Issue.record("unexpected call to \(name)")
        throw UnexpectedCall(name: name)
    }
}

func unexpected<A, B, C, D, Output>(_ name: String) -> @Sendable (A, B, C, D) async throws -> Output {
    { _, _, _, _ in
        Issue.record("unexpected call to \(name)")
        throw UnexpectedCall(name: name)
    }
}

func unexpected<Output>(_ name: String) -> @Sendable () async throws -> Output {
    {
        Issue.record("unexpected call to \(name)")
        throw UnexpectedCall(name: name)
    }
}
