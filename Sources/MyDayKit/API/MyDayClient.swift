import Foundation
import MyDayModels

/// Everything MyDayKit asks of the My Day server; the live client speaks `openapi.yaml`, tests use doubles.
///
/// Calls that need a session get a valid access token from the `SessionManager`, refreshing it first
/// when it is about to expire; sign-in calls store the new session there.
public protocol MyDayClient: Sendable {
    func register(email: String, password: String) async throws -> Account
    func login(email: String, password: String) async throws -> Account
    /// Signs in with an Apple identity token or a Google ID token the app obtained; with Apple, the authorization code
    /// that came with the token lets the server revoke the sign-in when the account is closed.
    func signIn(
        with provider: IdentityProvider, token: String, nonce: String?, name: String?, authorizationCode: String?
    ) async throws -> Account
    /// Ends this device's session on the server (best effort) and forgets it here.
    func logout() async throws
    /// Ends every session of the account, on every device, this one included.
    func logoutEverywhere() async throws
    func me() async throws -> Account
    /// The longest recording the server keeps, in seconds (`max_recording_seconds` of its configuration); nil when it
    /// does not say.
    func maxRecordingSeconds() async throws -> Int?
    func stats(timeZone: String) async throws -> DiaryStatistics

    func createEntry(_ entry: NewEntry) async throws -> CreatedEntry
    /// Tells the server the audio is there; with `transcript`, the device's own words, which the server then only cleans.
    func completeUpload(of id: UUID, transcript: DeviceTranscript?) async throws -> ServerEntry
    func changes(since cursor: String?, limit: Int) async throws -> EntryChanges
    /// One page of the server's full-text search, best match first.
    func search(_ request: SearchRequest) async throws -> SearchPage
    /// The change feed: the account's change sequence at once, then each time it moves. The stream ends when the
    /// access token expires, the session ends or the server stops; follow it with `ChangeFollower`.
    func changeFeed() async throws -> AsyncThrowingStream<Int, any Error>
    func entry(_ id: UUID) async throws -> ServerEntry
    func edit(_ id: UUID, _ edit: EntryEdit) async throws -> ServerEntry
    /// Moves the entry to Recently deleted (for 30 days); an entry whose audio never reached the server goes for good.
    func deleteEntry(_ id: UUID) async throws
    /// The entries in Recently deleted, the last deleted first.
    func recentlyDeleted() async throws -> [DeletedEntry]
    /// Brings an entry back from Recently deleted, as it was.
    func restoreEntry(_ id: UUID) async throws -> ServerEntry
    /// Deletes an entry of Recently deleted for good, now.
    func eraseEntry(_ id: UUID) async throws
    func retranscribe(_ id: UUID) async throws -> ServerEntry
    func audioLink(for id: UUID) async throws -> SignedLink
    /// The words of the entry's text as it reads now, each with when it was said (none for words typed by the person).
    func words(of id: UUID) async throws -> [TimedWord]

    /// A title, tags and a mood suggested from the entry's own words; nothing changes until one is saved as an edit.
    func suggestions(for id: UUID) async throws -> Suggestions

    /// One day (`YYYY-MM-DD`): its entries, tags and mood, and a digest of its own sentences.
    func day(_ date: String, timeZone: String) async throws -> DayPage
    /// The days a week, a month and each year before `date` (today in `timeZone` when nil) that hold entries.
    func onThisDay(_ date: String?, timeZone: String) async throws -> [PastDay]
    /// Figures of `from`…`to` (the last 365 days when nil): each day's entries, seconds, words and mood, the streaks,
    /// and the people, places and topics mentioned most.
    func insights(from: String?, to: String?, timeZone: String) async throws -> Insights

    /// Today's question about the last days, or nil when there is nothing to ask.
    func question(timeZone: String) async throws -> DiaryQuestion?

    /// The daily reminder, or nil when none is set.
    func reminder() async throws -> ReminderSettings?
    /// Sets the daily reminder; the server answers it as it keeps it.
    func setReminder(_ reminder: ReminderSettings) async throws -> ReminderSettings
    /// Ends the daily reminder (no error when there is none).
    func deleteReminder() async throws
    /// The browsers that get the reminder as a notification (Web Push), newest first.
    func notifiedBrowsers() async throws -> [NotifiedBrowser]
    /// Stops notifications to one browser.
    func stopNotifying(_ browser: UUID) async throws

    /// The words the recognizer is taught for this person: their own and those learned from titles, tags and corrections.
    func vocabulary() async throws -> [VocabularyWord]
    /// Makes `words` the whole vocabulary: a learned word left out is removed and not learned again.
    func replaceVocabulary(_ words: [String]) async throws -> [VocabularyWord]

    /// Asks for an export of the days, in every format (markdown pages and `entries.json` beside audio and text); without
    /// a sign-in in the last 5 minutes the server wants `proof` (403 `reauthentication_needed` otherwise). The link is
    /// mailed only to the account's confirmed address.
    func requestExport(from: String, to: String, timeZone: String, proof: SignInProof?) async throws -> ExportStatus
    func export(_ id: UUID) async throws -> ExportStatus
    /// Deletes the export and its archive; its link stops working.
    func deleteExport(_ id: UUID) async throws

    /// Asks the server to mail a link that sets a new password to whoever has `email` (it answers alike either way).
    func forgotPassword(email: String) async throws
    /// Sets a new password with the token of a mailed link, and signs in (every other session ends).
    func resetPassword(token: String, newPassword: String) async throws -> Account
    /// Confirms the address with the token of a mailed link; answers the address.
    func verifyEmail(token: String) async throws -> String
    /// Mails the link that confirms the signed-in account's address again.
    func resendVerificationEmail() async throws
    /// Asks for a new address: a link goes there, and the address changes when it is opened (`verifyEmail`). Without a
    /// sign-in in the last 5 minutes the server wants `proof`.
    func changeEmail(to email: String, proof: SignInProof?) async throws
    /// Deletes the account and every entry; without a sign-in in the last 5 minutes the server wants `proof`.
    func deleteAccount(proof: SignInProof?) async throws
    /// The account's ways to sign in: the password (when it has one) and each linked Apple or Google account.
    func signInMethods() async throws -> [SignInMethod]
    /// Stops one way of signing in; the server refuses the last one (409) and asks for a recent sign-in (403).
    func removeSignInMethod(_ kind: SignInMethod.Kind) async throws
}

extension MyDayClient {
    /// Tells the server the audio is there, for it to transcribe.
    public func completeUpload(of id: UUID) async throws -> ServerEntry { try await completeUpload(of: id, transcript: nil) }
}
