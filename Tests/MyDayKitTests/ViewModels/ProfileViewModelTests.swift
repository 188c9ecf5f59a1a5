import Foundation
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDayKit

@MainActor
@Suite struct ProfileViewModelTests {
    let harness = CoreHarness()

    @Test func showsTotalsAndStreaks() async throws {
        var client = FakeMyDayClient()
        client.onStats = { zone in
            #expect(zone == "Europe/Paris")
            return DiaryStatistics(
                timeZone: zone, totalEntries: 12, totalDuration: 754, words: 900, currentStreakDays: 1, longestStreakDays: 5,
                months: [], storageUsedBytes: 1_200_000_000, storageQuotaBytes: 10_000_000_000)
        }
        client.onMe = {
            Account(id: UUID(), email: "me@example.com", name: nil, hasPassword: true, createdAt: Given.now, emailVerified: false)
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris)
        await profile.load()
        #expect(profile.emailStatusText.contains("me@example.com is not confirmed"))
        #expect(profile.totalsText == "12 entries · 12:34 recorded")
        #expect(profile.streakText == "Streak: 1 day (longest 5)")
        #expect(profile.storageText == "Storage: 1.2 GB of 10 GB used")
    }

    @Test func aNewAddressIsAskedForOnceAndTheOldOneIsNotSentAgain() async throws {
        // Given the Profile of me@example.com
        let asked = Mutex<[String]>([])
        var client = Self.clientOfAConfirmedAccount()
        let proofs = Mutex<[SignInProof?]>([])
        client.onChangeEmail = { email, proof in
            asked.withLock { $0.append(email) }
            proofs.withLock { $0.append(proof) }
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris)
        await profile.load()
        // When the same address, or nothing, is typed, the server is not asked
        profile.newEmail = " ME@example.com "
        await profile.changeEmail()
        #expect(profile.errorMessage == "Type a new address, not the one the account has.")
        profile.newEmail = "  "
        #expect(!profile.canChangeEmail)
        await profile.changeEmail()
        #expect(asked.withLock { $0 }.isEmpty)
        // When a new one is, the server gets it with the proof (a fresh Apple sign-in here, before the typed
        // password), and the Profile says where the link went
        profile.newEmail = "new@example.com"
        profile.emailChangePassword = "a long diary password"
        #expect(profile.canChangeEmail)
        await profile.changeEmail(proof: .provider(.apple, token: "apple-token", nonce: "n"))
        #expect(asked.withLock { $0 } == ["new@example.com"])
        #expect(proofs.withLock { $0 } == [.provider(.apple, token: "apple-token", nonce: "n")])
        #expect(profile.emailChangeMessage?.contains("new@example.com") == true && profile.errorMessage == nil)
    }

    @Test func theTypedPasswordProvesANewAddressAndIsClearedOnceTheLinkIsSent() async throws {
        // Given a server that refuses the first request and takes the second
        var client = Self.clientOfAConfirmedAccount()
        let proofs = Mutex<[SignInProof?]>([])
        client.onChangeEmail = { _, proof in
            let count = proofs.withLock {
                $0.append(proof)
                return $0.count
            }
            if count == 1 {
                throw MyDayClientError.server(
                    status: 401, code: "wrong_password", message: "The password is not right.", retryAfter: nil)
            }
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris)
        await profile.load()
        profile.newEmail = "new@example.com"
        // When a wrong password is sent, then it stays for the person to correct
        profile.emailChangePassword = "a wrong password"
        await profile.changeEmail()
        #expect(profile.errorMessage == "The password is not right.")
        #expect(profile.emailChangePassword == "a wrong password")
        // When the right one is, then the link is sent and the field emptied
        profile.emailChangePassword = " a long diary password"
        await profile.changeEmail()
        #expect(profile.emailChangeMessage?.contains("new@example.com") == true)
        #expect(profile.emailChangePassword.isEmpty)
        #expect(
            proofs.withLock { $0 } == [.password("a wrong password"), .password(" a long diary password")])
    }

    @Test func anExportIsFollowedUntilItsLinkIsReady() async throws {
        // Given a server that builds the export over two polls
        let id = UUID()
        let link = URL(string: "http://127.0.0.1:1/v1/blobs/exports/x.zip?sig=1")!
        let polls = CallCounter()
        var client = FakeMyDayClient()
        client.onRequestExport = { from, to, zone, password in
            #expect([from, to, zone] == ["2026-11-01", "2026-11-21", "Europe/Paris"])
            #expect(password == nil)
            return ExportStatus(id: id, from: from, to: to, state: .queued, mailedTo: "me@example.com")
        }
        client.onExport = { _ in
            polls.increment() == 1
                ? ExportStatus(id: id, from: "", to: "", state: .building)
                : ExportStatus(id: id, from: "", to: "", state: .ready, downloadURL: link)
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris, pollInterval: .zero)
        profile.exportFrom = try Date("2026-10-31T23:30:00Z", strategy: .iso8601)
        profile.exportTo = try Date("2026-11-21T12:00:00Z", strategy: .iso8601)
        // When the export is started, then it ends with the link, mailed to the confirmed address too
        await profile.startExport()
        #expect(profile.export == .ready(link))
        #expect(profile.exportMailedTo == "me@example.com")
        #expect(polls.count == 2)
    }

    @Test func anExportAsksForThePasswordWhenTheSignInIsOldThenSendsItOnceAndCanBeDeleted() async throws {
        // Given a server that wants a recent sign-in, and takes the password
        let id = UUID()
        let attempts = CallCounter()
        let deleted = CallCounter()
        var client = FakeMyDayClient()
        client.onRequestExport = { from, to, _, proof in
            if attempts.increment() == 1 {
                #expect(proof == nil)
                throw MyDayClientError.server(
                    status: 403, code: "reauthentication_needed", message: "Send the password.", retryAfter: nil)
            }
            #expect(proof == .password("a long diary password"))
            return ExportStatus(id: id, from: from, to: to, state: .failed, failureReason: "Stopped.")
        }
        client.onDeleteExport = { exportID in
            #expect(exportID == id)
            deleted.increment()
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris, pollInterval: .zero)
        // When the export is asked for, then the screen asks for the password
        await profile.startExport()
        #expect(profile.export == .needsPassword("Send the password."))
        // When the password is given, then it goes with the second request only, and is forgotten after
        profile.exportPassword = "a long diary password"
        await profile.startExport()
        #expect(profile.export == .failed("Stopped."))
        #expect(profile.exportPassword.isEmpty)
        // When the export is deleted, then the server is told and the screen is idle again
        await profile.deleteExport()
        #expect(deleted.count == 1)
        #expect(profile.export == .idle)
    }

    @Test func theWaysToSignInAreListedAndOneIsRemovedButNeverTheLast() async throws {
        // Given an account that signs in with its password and Google
        let remaining = LockedMethods([
            SignInMethod(kind: .password, email: "me@example.com"),
            SignInMethod(kind: .provider(.google), email: "me@gmail.com"),
        ])
        var client = FakeMyDayClient()
        client.onSignInMethods = { remaining.value }
        client.onRemoveSignInMethod = { kind in remaining.remove(kind) }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris)
        await profile.loadSignInMethods()
        #expect(profile.signInMethods.map(\.label) == ["Email and password (me@example.com)", "Google (me@gmail.com)"])
        #expect(profile.canRemoveSignInMethod)
        // When the password is removed, then Google is left, and cannot be removed
        await profile.removeSignInMethod(profile.signInMethods[0])
        #expect(profile.signInMethods.map(\.kind) == [.provider(.google)])
        #expect(profile.signInNotice == "Email and password (me@example.com) no longer signs in to this account.")
        #expect(!profile.canRemoveSignInMethod)
    }

    @Test func removingAWayToSignInAfterAWhileAsksForAFreshSignIn() async throws {
        var client = FakeMyDayClient()
        client.onSignInMethods = {
            [SignInMethod(kind: .password, email: "me@example.com"), SignInMethod(kind: .provider(.apple), email: nil)]
        }
        client.onRemoveSignInMethod = { _ in
            throw MyDayClientError.server(
                status: 403, code: "reauthentication_needed", message: "Sign in again first.", retryAfter: nil)
        }
        let profile = ProfileViewModel(core: harness.core(client), timeZone: Given.paris)
        await profile.loadSignInMethods()
        await profile.removeSignInMethod(profile.signInMethods[1])
        #expect(profile.errorMessage?.contains("recent sign-in") == true)
        #expect(profile.signInMethods.count == 2)
    }

    @Test func aRangeThatEndsBeforeItStartsIsRefusedWithoutARequest() async throws {
        let profile = ProfileViewModel(core: harness.core(), timeZone: Given.paris)
        profile.exportFrom = Given.now
        profile.exportTo = Given.now.addingTimeInterval(-86_400 * 2)
        await profile.startExport()
        #expect(profile.export == .failed("The first day comes after the last."))
    }

    @Test func deletingTheAccountNeedsTheTypedWordEachTimeTheSheetIsShown() async throws {
        var client = FakeMyDayClient()
        client.onDeleteAccount = { #expect($0 == .password("a long diary password")) }
        let profile = ProfileViewModel(core: harness.core(client))
        profile.deletePassword = "a long diary password"
        profile.deleteConfirmation = "delete"
        await profile.deleteAccount()
        #expect(!profile.isSignedOut)
        #expect(profile.deleteMessage == "Type DELETE to confirm.")
        // When the sheet is shown anew after "DELETE" was typed and the sheet cancelled, then nothing typed is kept
        profile.deleteConfirmation = "DELETE"
        profile.startDeletion()
        #expect(!profile.canDeleteAccount && profile.deletePassword.isEmpty && profile.deleteMessage == nil)
        profile.deletePassword = "a long diary password"
        profile.deleteConfirmation = "DELETE"
        await profile.deleteAccount()
        #expect(profile.isSignedOut)
        #expect(profile.deleteMessage == nil)
    }

    @Test func aDeletionIsProvenByAFreshSignInOrTheTypedPasswordButNeverByOneOfSpaces() async throws {
        // Given a server that refuses the first two deletions and holds the third until the test lets it go
        let proofs = Mutex<[SignInProof?]>([])
        let held = Gate()
        var client = FakeMyDayClient()
        client.onDeleteAccount = { proof in
            let count = proofs.withLock {
                $0.append(proof)
                return $0.count
            }
            if count < 3 {
                throw MyDayClientError.server(
                    status: 403, code: "reauthentication_needed",
                    message: "Sign in again, or type your password, to delete the account.", retryAfter: nil)
            }
            if count == 3 { await held.wait() }
        }
        let profile = ProfileViewModel(core: harness.core(client))
        profile.deleteConfirmation = "DELETE"
        // When a password of spaces is typed, then none is sent (a recent sign-in may still be proof), and the refusal
        // is said
        profile.deletePassword = "   "
        await profile.deleteAccount()
        #expect(profile.deleteMessage == "Sign in again, or type your password, to delete the account.")
        // When a fresh Google sign-in is given, then it is the proof, whatever the field holds
        await profile.deleteAccount(proof: .provider(.google, token: "google-token", nonce: nil))
        // When the password is typed, then it is sent as typed, and a second tap while it runs sends nothing
        profile.deletePassword = "a long diary password "
        let first = Task { await profile.deleteAccount() }
        try await pollUntil("the deletion reaches the server") { held.waiterCount == 1 }
        #expect(profile.isDeleting && profile.deleteMessage == nil)
        await profile.deleteAccount()
        held.open()
        await first.value
        #expect(profile.isSignedOut && !profile.isDeleting)
        #expect(
            proofs.withLock { $0 } == [
                nil, .provider(.google, token: "google-token", nonce: nil), .password("a long diary password "),
            ])
    }

    @Test func signingOutIsRefusedWhileEntriesAreUnsent() async throws {
        // Given a note that never reached the server
        try harness.store.noteWritten("Unsent.", at: Given.now, timeZone: Given.paris)
        var client = FakeMyDayClient()
        client.onLogout = {}
        let profile = ProfileViewModel(core: harness.core(client))
        // When signing out, then it is refused with the reason, and the note stays
        await profile.signOut()
        #expect(!profile.isSignedOut)
        #expect(profile.errorMessage?.contains("1 change has not reached the server") == true)
        // Unless the person chooses to discard it
        await profile.signOut(discardingUnsent: true)
        #expect(profile.isSignedOut)
        #expect(try harness.store.entries().isEmpty)
    }

    @Test func aRefusedSignOutOffersToDiscardWhatWaitsAndTheOfferCanBeDismissed() async throws {
        // Given two notes that never reached the server
        try harness.store.noteWritten("Unsent.", at: Given.now, timeZone: Given.paris)
        try harness.store.noteWritten("Also unsent.", at: Given.now, timeZone: Given.paris)
        let profile = ProfileViewModel(core: harness.core())
        // When the person signs out, then the offer counts both, and nobody is signed out
        await profile.signOutOrOfferDiscard()
        #expect(profile.isOfferingDiscard && profile.unsentOnSignOut == 2)
        #expect(!profile.isSignedOut && !profile.isSigningOut)
        // When the offer is dismissed, then it is gone, and the notes stay
        profile.isOfferingDiscard = false
        #expect(!profile.isOfferingDiscard)
        #expect(try harness.store.entries().count == 2)
    }

    @Test func theProvidersThatCanProveItIsThePersonAreThoseLinked() async throws {
        var client = FakeMyDayClient()
        client.onSignInMethods = {
            [SignInMethod(kind: .password, email: "me@example.com"), SignInMethod(kind: .provider(.apple), email: nil)]
        }
        let profile = ProfileViewModel(core: harness.core(client))
        await profile.loadSignInMethods()
        #expect(profile.isLinked(.apple) && !profile.isLinked(.google))
        #expect(!profile.isExporting)
    }

    /// A server whose account is me@example.com, confirmed, with a password and an empty diary.
    private static func clientOfAConfirmedAccount() -> FakeMyDayClient {
        var client = FakeMyDayClient()
        client.onStats = { zone in
            DiaryStatistics(
                timeZone: zone, totalEntries: 0, totalDuration: 0, words: 0, currentStreakDays: 0, longestStreakDays: 0,
                months: [], storageUsedBytes: 0, storageQuotaBytes: 1)
        }
        client.onMe = {
            Account(id: UUID(), email: "me@example.com", name: nil, hasPassword: true, createdAt: Given.now, emailVerified: true)
        }
        return client
    }
}

/// The sign-in methods a fake server keeps, changed by the test's calls.
private final class LockedMethods: @unchecked Sendable {
    private let lock = NSLock()
    private var methods: [SignInMethod]

    init(_ methods: [SignInMethod]) { self.methods = methods }

    var value: [SignInMethod] { lock.withLock { methods } }

    func remove(_ kind: SignInMethod.Kind) { lock.withLock { methods.removeAll { $0.kind == kind } } }
}
