import Foundation
import Observation

/// Whether someone is signed in on this device, and how a signed-in diary is kept current: the rules an app's screens
/// share (when the session ends, one refresh at a time, what a failure shows), kept out of the app so they are tested
/// here. The app owns one, and tells it what only the platform knows: whether a recording holds unsaved audio, and
/// what to let go of when the session ends.
@MainActor
@Observable
public final class AppSession {
    /// Signed in, or showing the sign-in screen.
    public enum Phase: Equatable, Sendable {
        case signedOut
        case signedIn
    }

    /// What a failed sync shows when the server could not be reached.
    public static let unreachableServer = "Could not reach the server. Your entries are safe on this device."

    public private(set) var phase: Phase
    /// The core for the current server; replaced (`use(_:)`) only while signed out.
    public private(set) var core: ClientCore
    /// Why the last refresh failed; nil once one succeeds.
    public private(set) var lastSyncError: String?
    /// Why recordings a crash or a failed take left could not become entries; nil once they could.
    public private(set) var recoveryError: String?
    /// What Home and the Library show above everything else, if anything.
    public var attentionMessage: String? { recoveryError ?? lastSyncError }

    /// Whether a recording is under way or being saved (signing out now would discard its audio).
    @ObservationIgnored public var isRecording: @MainActor () -> Bool = { false }
    /// Called each time the session ends (signed out here, or ended by the server): the app lets go of what was the
    /// session's (its Home screen, the Record control's state).
    @ObservationIgnored public var sessionEnded: @MainActor () -> Void = {}
    /// How long uploaded audio stays on this device (the person's setting), read at each refresh.
    @ObservationIgnored public var audioKeeping: @MainActor () -> AudioKeeping = { AudioKeeping.choices[0] }
    /// Follows the server's change feed while the app is in front; the default is `ChangeFollower` with its backoff.
    @ObservationIgnored public var makeFollower: @MainActor (AppSession) -> ChangeFollower = { session in
        ChangeFollower(client: session.core.client) { [weak session] in await session?.refresh() }
    }

    /// The server ended the session during a recording: the sign-in screen waits until the recording is saved.
    @ObservationIgnored private var endedWhileRecording = false
    @ObservationIgnored private var runningRefresh: Task<Bool, Never>?
    @ObservationIgnored private var followingChanges: Task<Void, Never>?

    /// Recovers what a crash interrupted (call it before any new recording can start). `signedIn` says whether this
    /// device holds a session (a Keychain that cannot be read yet counts as holding one).
    public init(core: ClientCore, signedIn: Bool) {
        self.core = core
        phase = signedIn ? .signedIn : .signedOut
        do {
            try core.recoverAfterLaunch()
        } catch {
            recoveryError = Self.recoveryFailure(error)
        }
    }

    /// Another server's core, taken only while signed out; answers whether it was.
    @discardableResult
    public func use(_ core: ClientCore) -> Bool {
        guard phase == .signedOut else { return false }
        self.core = core
        return true
    }

    // MARK: - Signing in and out

    /// Signs in with `operation` (`ClientCore.signIn`), then sends what waits, refreshes and follows the changes.
    @discardableResult
    public func signIn(_ operation: @escaping @Sendable (any MyDayClient) async throws -> Account) async throws
        -> Account
    {
        let account = try await Self.signIn(on: core, recordingUnderWay: isRecording(), operation)
        lastSyncError = nil
        phase = .signedIn
        await core.uploads.wake()
        Task { await refresh() }
        followChanges()
        return account
    }

    /// `ClientCore.signIn` takes its operation off the main actor, where it runs.
    private nonisolated static func signIn(
        on core: ClientCore, recordingUnderWay: Bool,
        _ operation: @escaping @Sendable (any MyDayClient) async throws -> Account
    ) async throws -> Account {
        try await core.signIn(recordingUnderWay: recordingUnderWay, operation)
    }

    /// After the person signed out or deleted the account here (the diary on this device is gone).
    public func didSignOut() {
        endSession()
    }

    /// The server ended the session. The diary stays: signing in again as the same account keeps it and sends what
    /// waits. A recording under way goes on; the session ends once it is saved (`recorderStateChanged`).
    public func sessionDidEnd() {
        guard phase == .signedIn else { return }
        guard !isRecording() else {
            endedWhileRecording = true
            return
        }
        endSession()
    }

    /// The recorder's state changed: a session the server ended during the recording ends once it is saved.
    public func recorderStateChanged() {
        guard endedWhileRecording, !isRecording() else { return }
        endedWhileRecording = false
        sessionDidEnd()
    }

    /// The upload queue paused. `sessionStored` is whether the device still holds a session (nil when it cannot tell,
    /// a locked Keychain): when it holds none, the server ended it.
    public func uploadsPaused(sessionStored: Bool?) {
        guard sessionStored == false else { return }
        sessionDidEnd()
    }

    private func endSession() {
        stopFollowingChanges()
        endedWhileRecording = false
        lastSyncError = nil
        phase = .signedOut
        sessionEnded()
    }

    // MARK: - Keeping the diary current

    /// Sends what waits, brings in the server's changes and lets go of old uploaded audio; a refresh already under way
    /// is joined, not repeated. Answers whether it worked.
    @discardableResult
    public func refresh() async -> Bool {
        guard phase == .signedIn else { return true }
        if let runningRefresh { return await runningRefresh.value }
        retryRecovery()
        let core = core
        let keeping = audioKeeping()
        let refresh = syncTask {
            _ = try await core.refresh()
            try core.releaseUploadedAudio(keeping: keeping)
        }
        runningRefresh = refresh
        let succeeded = await refresh.value
        if runningRefresh == refresh { runningRefresh = nil }
        return succeeded
    }

    /// While the app is in front: each change on the server (a transcript ready, an edit on another device) comes in
    /// through a refresh; the follower polls when the feed cannot be reached.
    public func followChanges() {
        guard phase == .signedIn, followingChanges == nil else { return }
        let follower = makeFollower(self)
        followingChanges = Task { await follower.run() }
    }

    /// Whether the change feed is being followed.
    public var isFollowingChanges: Bool { followingChanges != nil }

    /// The app left the front, or the session ended: no more following until it comes back.
    public func stopFollowingChanges() {
        followingChanges?.cancel()
        followingChanges = nil
    }

    /// The app leaves the screen: every saved recording goes to the background upload now (`ClientCore`).
    public func handOverForBackground() async {
        guard phase == .signedIn else { return }
        _ = try? await core.handOverForBackground()
    }

    /// The background refresh: what waits is handed over, then the diary is synced; answers whether both worked, and
    /// stops when the system cancels it.
    public func refreshInBackground() async -> Bool {
        guard phase == .signedIn else { return true }
        let core = core
        let work = syncTask { _ = try await core.refreshInBackground() }
        return await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }
    }

    /// `work` as a task that answers whether it worked; a failure is shown, or ends the session.
    private func syncTask(_ work: @escaping @Sendable () async throws -> Void) -> Task<Bool, Never> {
        Task {
            do {
                try await work()
                self.lastSyncError = nil
                return true
            } catch {
                self.noticeSyncFailure(error)
                return false
            }
        }
    }

    private func noticeSyncFailure(_ error: any Error) {
        switch error {
        case let error as MyDayClientError where error == .sessionEnded || error == .notSignedIn:
            sessionDidEnd()
        case is CancellationError:
            break
        case let error as MyDayClientError:
            lastSyncError = error.description
        default:
            lastSyncError = Self.unreachableServer
        }
    }

    /// Recordings that could not become entries before are tried again, unless one is being recorded now.
    private func retryRecovery() {
        guard recoveryError != nil, !isRecording() else { return }
        do {
            try core.recoverInterruptedRecordings()
            recoveryError = nil
        } catch {
            recoveryError = Self.recoveryFailure(error)
        }
    }

    private static func recoveryFailure(_ error: any Error) -> String {
        "Recordings interrupted earlier are kept on this device but could not be added to the diary yet: "
            + error.localizedDescription
    }
}
