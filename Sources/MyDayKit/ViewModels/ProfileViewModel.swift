import Foundation
import MyDayModels
import Observation

/// The Profile screen: totals and streaks, export of a date range, sign out, delete account.
@MainActor
@Observable
public final class ProfileViewModel {
    /// Where an export request is.
    public enum ExportProgress: Equatable, Sendable {
        case idle
        /// Asked for, or being built; the text says which.
        case working(String)
        case ready(URL)
        case failed(String)
        /// The server wants the password before it exports (no sign-in in the last 5 minutes); the text says so.
        case needsPassword(String)
    }

    /// The word a person types to confirm deleting the account.
    public static let deleteConfirmationWord = "DELETE"

    public private(set) var stats: DiaryStatistics?
    public var exportFrom: Date
    public var exportTo: Date
    /// The password, asked for when the server wants a recent sign-in before exporting.
    public var exportPassword = ""
    public private(set) var export: ExportProgress = .idle
    /// Where the ready export's link was mailed too; nil when it is only shown here.
    public private(set) var exportMailedTo: String?
    /// The signed-in account, as the server last told it (whether its address is confirmed, say).
    public private(set) var account: Account?
    /// Said after the confirmation link was sent again.
    public private(set) var verificationNotice: String?
    /// Where the link that confirms a new address went, once it was asked for.
    public private(set) var emailChangeMessage: String?
    /// The password and linked Apple and Google accounts, once `loadSignInMethods` read them.
    public private(set) var signInMethods: [SignInMethod] = []
    /// What the last removal of a way to sign in did.
    public private(set) var signInNotice: String?
    private var exportID: UUID?
    /// The days of the export asked for, for its file's name.
    private var exportDays: (from: String, to: String)?
    public var deleteConfirmation = ""
    /// The password typed to delete the account, its proof unless a fresh Apple or Google sign-in is given instead.
    public var deletePassword = ""
    /// Set while `deleteAccount` runs.
    public private(set) var isDeleting = false
    /// Why the last try to delete the account failed; nil before one and while one runs.
    public private(set) var deleteMessage: String?
    /// The new address typed for the account, and the password that proves it is the person asking.
    public var newEmail = ""
    public var emailChangePassword = ""
    public private(set) var errorMessage: String?
    /// Set after sign-out or account deletion; the app returns to the sign-in screen.
    public private(set) var isSignedOut = false

    private let core: ClientCore
    private let timeZone: TimeZone
    private let pollInterval: Duration

    public init(core: ClientCore, timeZone: TimeZone = .current, now: Date = Date(), pollInterval: Duration = .seconds(1)) {
        self.core = core
        self.timeZone = timeZone
        self.pollInterval = pollInterval
        exportTo = now
        exportFrom = now.addingTimeInterval(-30 * 86_400)
    }

    public var totalsText: String {
        guard let stats else { return "" }
        let entries = counted(stats.totalEntries, "entry", "entries")
        return "\(entries) · \(formattedDuration(stats.totalDuration)) recorded"
    }

    public var streakText: String {
        guard let stats else { return "" }
        let days = counted(stats.currentStreakDays, "day", "days")
        return "Streak: \(days) (longest \(stats.longestStreakDays))"
    }

    /// "Storage: 1.2 GB of 10 GB used"; empty when the server names no quota.
    public var storageText: String {
        guard let stats, stats.storageQuotaBytes > 0 else { return "" }
        let used = ByteCountFormatter.string(fromByteCount: stats.storageUsedBytes, countStyle: .file)
        let quota = ByteCountFormatter.string(fromByteCount: stats.storageQuotaBytes, countStyle: .file)
        return "Storage: \(used) of \(quota) used"
    }

    public var canDeleteAccount: Bool { deleteConfirmation == Self.deleteConfirmationWord }

    /// "Confirm your address: …" while the address is not confirmed; empty once it is.
    public var emailStatusText: String {
        guard let account, !account.emailVerified else { return "" }
        return
            "Your address \(account.email) is not confirmed yet: open the link we mailed you. Export links are mailed only to a confirmed address."
    }

    public func load() async {
        do {
            stats = try await core.client.stats(timeZone: timeZone.identifier)
            account = try await core.client.me()
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Asks for an export of the chosen days (in this device's time zone) and follows it until it is ready. The proof of
    /// a recent sign-in is `proof` (a fresh Apple or Google sign-in), else the typed `exportPassword`, when either is given.
    public func startExport(proof: SignInProof? = nil) async {
        let from = Self.localDay(exportFrom, timeZone)
        let to = Self.localDay(exportTo, timeZone)
        guard from <= to else {
            export = .failed("The first day comes after the last.")
            return
        }
        let proof = proof ?? Self.passwordProof(exportPassword)
        exportPassword = ""
        do {
            var status = try await core.client.requestExport(
                from: from, to: to, timeZone: timeZone.identifier, proof: proof)
            exportID = status.id
            exportDays = (from, to)
            exportMailedTo = status.mailedTo
            while status.state == .queued || status.state == .building {
                export = .working(status.state == .queued ? "Waiting to start…" : "Building the archive…")
                try await Task.sleep(for: pollInterval)
                status = try await core.client.export(status.id)
            }
            if status.state == .ready, let url = status.downloadURL {
                export = .ready(url)
            } else {
                export = .failed(status.failureReason ?? "The export \(status.state.rawValue).")
            }
        } catch is CancellationError {
            export = .idle
        } catch MyDayClientError.server(403, "reauthentication_needed", let message, _) {
            export = .needsPassword(message)
        } catch {
            export = .failed(LibraryViewModel.message(for: error))
        }
    }

    /// The ready export's archive, downloaded into `folder` for the system's file exporter (Files, iCloud Drive) and
    /// named as the server names it; nil (with the reason in `errorMessage`) when it could not be fetched.
    public func downloadArchive(into folder: URL = FileManager.default.temporaryDirectory) async -> URL? {
        guard case .ready(let url) = export, let days = exportDays else { return nil }
        let file = folder.appendingPathComponent("myday-export-\(days.from)-\(days.to).zip")
        do {
            try await SignedDownload.fetch(url, to: file)
            errorMessage = nil
            return file
        } catch {
            errorMessage = "The archive could not be downloaded: \(LibraryViewModel.message(for: error))"
            return nil
        }
    }

    /// Deletes the export this screen asked for, and its archive: the link stops working.
    public func deleteExport() async {
        guard let id = exportID else { return }
        do {
            try await core.client.deleteExport(id)
            exportID = nil
            exportMailedTo = nil
            export = .idle
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Reads the account's ways to sign in.
    public func loadSignInMethods() async {
        do {
            signInMethods = try await core.client.signInMethods()
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Whether a way to sign in may be removed: never the last one.
    public var canRemoveSignInMethod: Bool { signInMethods.count > 1 }

    /// Stops one way of signing in, then reads the list again.
    public func removeSignInMethod(_ method: SignInMethod) async {
        do {
            try await core.client.removeSignInMethod(method.kind)
            signInNotice = "\(method.label) no longer signs in to this account."
            errorMessage = nil
            await loadSignInMethods()
        } catch MyDayClientError.server(403, "reauthentication_needed", _, _) {
            signInNotice = nil
            errorMessage = "For your safety this needs a recent sign-in: sign out, sign in again, then remove it."
        } catch {
            signInNotice = nil
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Mails the link that confirms the address again.
    public func resendVerification() async {
        do {
            try await core.client.resendVerificationEmail()
            verificationNotice = "Sent. Open the link in the mail to confirm your address."
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Set while `signOutOrOfferDiscard` runs.
    public private(set) var isSigningOut = false
    /// How many changes had not reached the server when a sign-out was refused for them.
    public private(set) var unsentOnSignOut = 0
    /// Whether the app offers to sign out anyway and discard them.
    public var isOfferingDiscard = false

    /// An export is being made.
    public var isExporting: Bool {
        if case .working = export { return true }
        return false
    }

    /// Whether the account signs in with `provider`, whose fresh sign-in can then prove it is the person.
    public func isLinked(_ provider: IdentityProvider) -> Bool {
        signInMethods.contains { $0.kind == .provider(provider) }
    }

    /// Signs out; when that is refused because changes have not reached the server, `unsentOnSignOut` counts them.
    public func signOutOrOfferDiscard() async {
        guard !isSigningOut else { return }
        isSigningOut = true
        defer { isSigningOut = false }
        await signOut()
        guard !isSignedOut else { return }
        unsentOnSignOut = (try? core.unsentCount()) ?? 0
        isOfferingDiscard = unsentOnSignOut > 0
    }

    /// Signs out; refused while entries are unsent unless the person chose to discard them.
    public func signOut(discardingUnsent: Bool = false) async {
        do {
            try await core.signOut(discardingUnsent: discardingUnsent)
            isSignedOut = true
        } catch {
            errorMessage = (error as? LocalStoreError)?.description ?? LibraryViewModel.message(for: error)
        }
    }

    /// Empties what was typed to delete the account and what the last try said, for a delete sheet shown anew: a
    /// confirmation typed earlier and cancelled is never ready the next time.
    public func startDeletion() {
        guard !isDeleting else { return }
        deleteConfirmation = ""
        deletePassword = ""
        deleteMessage = nil
    }

    /// Deletes the account and every entry, after the typed confirmation. The proof of a recent sign-in is `proof` (a
    /// fresh Apple or Google sign-in), else the typed `deletePassword`, when either is given; one try at a time.
    public func deleteAccount(proof: SignInProof? = nil) async {
        guard !isDeleting else { return }
        guard canDeleteAccount else {
            deleteMessage = "Type \(Self.deleteConfirmationWord) to confirm."
            return
        }
        isDeleting = true
        deleteMessage = nil
        defer { isDeleting = false }
        do {
            try await core.deleteAccount(proof: proof ?? Self.passwordProof(deletePassword))
            deletePassword = ""
            isSignedOut = true
        } catch {
            deleteMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Whether "Send the link" has an address to send to.
    public var canChangeEmail: Bool { !newEmail.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }

    /// Asks for `newEmail` as the account's address, proven by `proof` (a fresh Apple or Google sign-in) or the typed
    /// `emailChangePassword`; `emailChangeMessage` says where the link went, and the password is cleared.
    public func changeEmail(proof: SignInProof? = nil) async {
        let address = newEmail.trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.contains("@"), address.lowercased() != account?.email.lowercased() else {
            errorMessage = address.isEmpty ? "Type the new address." : "Type a new address, not the one the account has."
            return
        }
        do {
            try await core.client.changeEmail(to: address, proof: proof ?? Self.passwordProof(emailChangePassword))
            emailChangeMessage = "A link is on its way to \(address). Your address changes when you open it."
            emailChangePassword = ""
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// A typed password as the proof of a recent sign-in, sent as typed; nil for a field left empty or holding only
    /// spaces, which no password is (a password has 8 characters besides spaces at either end), so that a recent
    /// sign-in still proves it is the person.
    static func passwordProof(_ typed: String) -> SignInProof? {
        typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : .password(typed)
    }

    static func localDay(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
