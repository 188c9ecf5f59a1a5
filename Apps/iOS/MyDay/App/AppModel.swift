import AuthenticationServices
import Foundation
import GoogleSignIn
import MyDayKit
import MyDaySearch
import Observation
import UIKit
import UserNotifications
import WidgetKit

/// What every screen shares: the session (MyDayKit's `AppSession`: who is signed in, the core for the chosen server,
/// refreshing), the platform's parts it needs, and the view models built on it. `AppDelegate` owns the one instance,
/// so background launches have it too.
@MainActor
@Observable
final class AppModel {
    private static let serverURLKey = "serverURL"
    /// The model of this launch, for the App Intents Siri and Shortcuts run in the app (`MyDayShortcuts`).
    private(set) static var current: AppModel?

    let session: AppSession
    var phase: AppSession.Phase { session.phase }
    /// The core for the current server; rebuilt when the server changes while signed out.
    var core: ClientCore { session.core }
    /// What Home and the Library show above everything else, if anything.
    var attentionMessage: String? { session.attentionMessage }
    /// What the last link of the server's mail opened here did; the window says it once and clears it.
    var mailedLinkOutcome: MailedLinkOutcome?
    /// Audio files another app shared with My Day ("Open in My Day"), waiting for the import sheet to take them.
    var sharedFiles: [URL] = []
    let settings: DeviceSettings
    /// Ends a session begun with Sign in with Apple once that Apple ID stops signing in to My Day.
    let appleSignIn: AppleSignInWatch
    /// Google's OAuth client; nil when the build configures none, and the sign-in screen offers no Google.
    let googleClientID: String?

    /// The server this device talks to (UserDefaults "serverURL", else Info.plist `MyDayServerURL`). It changes only
    /// while signed out; the core is rebuilt for it.
    var serverURL: URL {
        get { currentServerURL }
        set {
            guard phase == .signedOut, newValue != currentServerURL else { return }
            let other = ClientCore(
                store: core.store, library: core.library,
                client: LiveMyDayClient(serverURL: newValue, credentials: credentials),
                uploader: backgroundUploader, network: network, report: reportUploadEvent)
            guard session.use(other) else { return }
            currentServerURL = newValue
            defaults.set(newValue.absoluteString, forKey: Self.serverURLKey)
            startUploads()
        }
    }

    private var currentServerURL: URL
    @ObservationIgnored private let defaults: UserDefaults
    @ObservationIgnored private let credentials: KeychainCredentialStore
    @ObservationIgnored private let network: NetworkConditionsMonitor
    @ObservationIgnored private let pathMonitor: PathNetworkMonitor
    @ObservationIgnored private let backgroundUploader: BackgroundUploader
    @ObservationIgnored private let handOverTime = BackgroundTime(name: "Handing recordings to the upload")
    @ObservationIgnored private let widgets = AppModel.widgetShelf()
    @ObservationIgnored private let reportUploadEvent: @Sendable (UploadEvent) -> Void
    /// The notification center's delegate (it holds it weakly): Resume on the paused recording's notice.
    @ObservationIgnored private var notificationResponses: NotificationResponses?
    @ObservationIgnored private var uploadsRun: Task<Void, Never>?
    @ObservationIgnored private var homeViewModel: HomeViewModel?
    /// The reminder as the server last said it, for planning its notifications again without asking.
    @ObservationIgnored private var plannedReminder: ReminderViewModel?
    /// A recording the Record control started while signed out: the sign-in screen shows its bar, and it goes up once
    /// its owner signs in again.
    private(set) var signedOutRecording: HomeViewModel?

    /// Opens the diary, recovers what a crash interrupted (before any new recording can start), and starts the
    /// upload queues. Throws `DiaryUnavailable` when the diary cannot be opened (a full disk), for `DiaryLaunch` to show.
    init(defaults: UserDefaults = .standard) throws {
        let bundleID = Bundle.main.bundleIdentifier ?? "MyDay"
        let directory = Self.diaryDirectory()
        let credentials = KeychainCredentialStore(service: bundleID + ".session")
        credentials.forgetUnlessDiaryIn(directory)
        let network = NetworkConditionsMonitor(wifiOnly: false)
        let (pauses, pausesContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (uploadEvents, uploadEventsContinuation) = AsyncStream.makeStream(
            of: UploadEvent.self, bufferingPolicy: .bufferingNewest(64))
        let report: @Sendable (UploadEvent) -> Void = { event in
            if case .paused = event { pausesContinuation.yield(()) }
            uploadEventsContinuation.yield(event)
        }
        let serverURL = ServerAddress.initial(
            stored: defaults.string(forKey: Self.serverURLKey),
            configured: Bundle.main.object(forInfoDictionaryKey: "MyDayServerURL") as? String)
        let uploader: BackgroundUploader
        let core: ClientCore
        do {
            uploader = try BackgroundUploader(
                transfer: URLSessionBackgroundTransfer.shared,
                ledgerFile: directory.appendingPathComponent("background-uploads.json"))
            core = try ClientCore.live(
                directory: directory, serverURL: serverURL, credentials: credentials, network: network,
                uploader: uploader, report: report)
        } catch {
            throw DiaryUnavailable(error)
        }
        // A Keychain that cannot be read yet (before the first unlock) says nothing about the session: stay signed in.
        session = AppSession(core: core, signedIn: credentials.holdsSession ?? true)
        self.defaults = defaults
        self.credentials = credentials
        self.network = network
        pathMonitor = PathNetworkMonitor(feeding: network)
        settings = DeviceSettings(
            defaults: defaults, network: network, speechModels: AppleSpeechModels(),
            unavailableReason: { AppleSpeechTranscriber.unavailableReason(for: .current, model: $0) },
            lockTurnedOn: { AppModel.widgetShelf().hideWords() })
        googleClientID = GoogleSignInConfiguration.clientID
        let (appleIDEnds, appleIDEndsContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        appleSignIn = AppleSignInWatch(
            file: directory.appendingPathComponent("apple-user-id"),
            state: { userID in await Self.appleIDState(of: userID) },
            endSession: { appleIDEndsContinuation.yield(()) })
        currentServerURL = serverURL
        backgroundUploader = uploader
        reportUploadEvent = report
        let settings = settings
        session.audioKeeping = { settings.audioKeeping }
        session.isRecording = { [weak self] in self?.isRecording ?? false }
        session.sessionEnded = { [weak self] in self?.sessionEnded() }
        URLSessionBackgroundTransfer.shared.follow(network)
        startUploads()
        Task { await uploader.run() }
        Task { await settings.refreshSpeechModel() }
        Task { [weak self] in
            for await _ in pauses { self?.noticeEndedSession() }
        }
        // Home keeps background time for a saved recording until the uploader has it.
        Task { [weak self] in
            for await event in uploadEvents { self?.homeViewModel?.uploadEvent(event) }
        }
        Task { [weak self] in
            // The session's tokens go (the server is told when it can be reached); what was not sent stays.
            for await _ in appleIDEnds {
                try? await self?.core.client.logout()
                self?.session.sessionDidEnd()
            }
        }
        // The person may have stopped using their Apple ID with My Day while it was closed, or does so now.
        let appleSignIn = appleSignIn
        Task { await appleSignIn.check() }
        NotificationCenter.default.addObserver(
            forName: ASAuthorizationAppleIDProvider.credentialRevokedNotification, object: nil, queue: nil
        ) { _ in
            Task { await appleSignIn.check() }
        }
        RecordingControlBridge.recordingRequested = { [weak self] stop in await self?.recordingRequested(stop: stop) }
        RecordingActivityBridge.actionRequested = { [weak self] action in await self?.recordingActivityAction(action) }
        RecordingPausedNotice.register()
        let responses = NotificationResponses { [weak self] in await self?.recordingActivityAction(.resume) }
        notificationResponses = responses
        UNUserNotificationCenter.current().delegate = responses
        Self.current = self
        // No recording is under way at launch, whatever a process that ended mid-recording left in the App Group or on
        // the Lock Screen.
        RecordingControlBridge.setIsRecording(false)
        RecordingLiveActivity.update(for: .idle, elapsed: 0)
    }

    /// A recording is under way or being saved: signing out or deleting the account now would discard its audio.
    var isRecording: Bool {
        homeViewModel?.recorder.state.holdsUnsavedAudio ?? false
    }

    /// Home reports every change of the recorder's state: a session the server ended during the recording
    /// takes effect once the recording is saved, and a recording the system paused off screen is told.
    func recorderStateChanged() {
        if let recorder = homeViewModel?.recorder {
            RecordingPausedNotice.update(for: recorder.state, appIsActive: UIApplication.shared.applicationState == .active)
            RecordingLiveActivity.update(for: recorder.state, elapsed: recorder.elapsed)
        }
        session.recorderStateChanged()
    }

    // MARK: - View models

    /// The Home screen's model, one per signed-in phase, so a recording survives the screen being rebuilt.
    func makeHomeViewModel() -> HomeViewModel {
        if let homeViewModel { return homeViewModel }
        let settings = settings
        let model = HomeViewModel(
            core: core, capture: EngineAudioCapture(), hintStore: DefaultsHintStore(), locale: .current,
            deviceTranscriber: {
                settings.transcribeOnDevice && settings.onDeviceTranscriptionAvailable ? AppleSpeechTranscriber() : nil
            },
            isInForeground: { UIApplication.shared.applicationState == .active })
        homeViewModel = model
        model.stoppedByItself = { [weak self] in
            RecordingControlBridge.setIsRecording(false)
            self?.recorderStateChanged()
        }
        Task { await model.learnTheLongestRecording() }
        return model
    }

    /// The Library, searching for `text` when one is given (a name or topic Insights opened).
    func makeLibraryViewModel(searching text: String? = nil) -> LibraryViewModel {
        let library = LibraryViewModel(core: core)
        if let text { library.search.text = text }
        return library
    }

    /// Plans the reminder's notifications again, as the server has it: today's goes once today has an entry.
    func planReminders() async {
        let reminders = ReminderViewModel(core: core)
        await reminders.load()
        guard reminders.isLoaded else { return }
        plannedReminder = reminders
        await ReminderNotifications.plan(reminders.notificationTimes(now: Date()))
    }

    /// Plans the reminder last read from the server again, once an entry may have been saved: today's goes when today
    /// has one, offline too.
    private func planRemindersAfterEntry() async {
        guard let plannedReminder else { return }
        await ReminderNotifications.plan(plannedReminder.notificationTimes(now: Date()))
    }

    /// Opens a link of the server's mail (a universal link); false for any other URL, left to whoever handles it.
    func openMailedLink(_ url: URL) async -> Bool {
        guard let outcome = await core.openMailedLink(url, server: serverURL) else { return false }
        mailedLinkOutcome = outcome
        return true
    }

    // MARK: - Signing in and out

    func signInWithEmail(_ email: String, password: String, register: Bool) async throws {
        try await signIn { client in
            if register { return try await client.register(email: email, password: password) }
            return try await client.login(email: email, password: password)
        }
    }

    /// Sets a new password with the token of a mailed reset or confirmation link (or the whole link), and signs in.
    func resetPassword(token: String, newPassword: String) async throws {
        let token = MailedLink.passwordSettingToken(in: token)
        try await signIn { client in try await client.resetPassword(token: token, newPassword: newPassword) }
    }

    /// Asks the server to mail a reset link to whoever has `email`.
    func forgotPassword(email: String) async throws {
        try await core.client.forgotPassword(email: email)
    }

    /// `idToken`, `authorizationCode` and `nonce` (the raw one of `SignInNonce.make()`) come from Sign in with Apple.
    func signInWithApple(
        idToken: String, authorizationCode: String?, nonce: String, name: String?, appleUserID: String
    ) async throws {
        try await signIn(appleUserID: appleUserID) { client in
            try await client.signIn(
                with: .apple, token: idToken, nonce: nonce, name: name, authorizationCode: authorizationCode)
        }
    }

    /// What Sign in with Apple says of `userID` now; a question that fails (no network) keeps the session.
    private nonisolated static func appleIDState(of userID: String) async -> AppleIDCredentialState {
        guard let state = try? await ASAuthorizationAppleIDProvider().credentialState(forUserID: userID) else {
            return .authorized
        }
        switch state {
        case .authorized: return .authorized
        case .revoked: return .revoked
        case .notFound: return .notFound
        case .transferred: return .transferred
        @unknown default: return .authorized
        }
    }

    /// Google's sheet, presented from `presenting`, then the server; throws `CancellationError` when the person
    /// closed the sheet.
    func signInWithGoogle(presenting: UIViewController) async throws {
        let idToken = try await Self.googleIDToken(presenting: presenting)
        try await signIn { client in
            try await client.signIn(with: .google, token: idToken, nonce: nil, name: nil, authorizationCode: nil)
        }
    }

    /// A fresh Google sign-in as the proof something needs (closing the account, say); Google's sheet is shown.
    func googleProof(presenting: UIViewController) async throws -> SignInProof {
        .provider(.google, token: try await Self.googleIDToken(presenting: presenting), nonce: nil)
    }

    /// Google's ID token from its sign-in sheet. The callback form is called here, on the main actor: the SDK presents
    /// its sheet from the calling thread, and its `async` form would call it from a background one.
    private static func googleIDToken(presenting: UIViewController) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            GIDSignIn.sharedInstance.signIn(withPresenting: presenting) { result, error in
                if let idToken = result?.user.idToken?.tokenString {
                    continuation.resume(returning: idToken)
                } else if (error as? GIDSignInError)?.code == .canceled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    continuation.resume(throwing: error ?? GoogleSignInFailure.noIDToken)
                }
            }
        }
    }

    /// After `ProfileViewModel` signed out or deleted the account (the diary on this device is gone).
    func didSignOut() {
        session.didSignOut()
        GIDSignIn.sharedInstance.signOut()
        // The reminders were the account's: none are shown to a signed-out phone.
        plannedReminder = nil
        Task { await ReminderNotifications.plan([]) }
    }

    /// The session ended (signed out here, or by the server): what belonged to it goes. The diary stays when the
    /// server ended it: signing in again as the same account keeps it and sends what waits.
    private func sessionEnded() {
        Task { [appleSignIn] in await appleSignIn.signedOut() }
        homeViewModel = nil
        RecordingControlBridge.setIsRecording(false)
        widgets.forget()
    }

    private func signIn(
        appleUserID: String? = nil, _ operation: @escaping @Sendable (any MyDayClient) async throws -> Account
    ) async throws {
        // A new Home for the new session, before the phase changes and the screen asks for it; a recording the Record
        // control started on the sign-in screen goes on in it.
        if !isRecording { homeViewModel = nil }
        try await session.signIn(operation)
        signedOutRecording = nil
        try? await appleSignIn.signedIn(appleUserID: appleUserID)
        updateWidgets()
    }

    // MARK: - Refreshing

    /// Sends what waits and brings in the server's changes; a refresh already under way is joined, not repeated.
    func refresh() async {
        await session.refresh()
        updateWidgets()
        await updateOnThisDay()
    }

    /// The streak the widgets show.
    private func updateWidgets() {
        widgets.showStreak(of: core.store)
    }

    /// On this day for its widget; without the diary's words while the app is locked with Face ID.
    private func updateOnThisDay() async {
        guard phase == .signedIn else { return }
        await widgets.showOnThisDay(asking: core.client, words: { [settings] in !settings.lockEnabled })
    }

    /// The App Group's widgets, redrawn through WidgetKit.
    private static func widgetShelf() -> WidgetShelf {
        WidgetShelf(defaults: RecordingControlBridge.sharedDefaults) { kind in
            if let kind { WidgetCenter.shared.reloadTimelines(ofKind: kind) } else { WidgetCenter.shared.reloadAllTimelines() }
        }
    }

    /// While the app is in front, the server's change feed brings each change in as it happens.
    func followChanges() {
        session.followChanges()
    }

    /// The app left the front: no more following until it comes back.
    func stopFollowingChanges() {
        session.stopFollowingChanges()
    }

    /// The app leaves the screen: every saved recording goes to the background session now, with background time
    /// until the session has them.
    func handOverForBackground() async {
        guard phase == .signedIn else { return }
        handOverTime.keep(while: true)
        defer { handOverTime.keep(while: false) }
        updateWidgets()
        await session.handOverForBackground()
        await planRemindersAfterEntry()
    }

    /// The background refresh (`AppSession.refreshInBackground`).
    func refreshInBackground() async -> Bool {
        await session.refreshInBackground()
    }

    /// The upload queue paused: when the Keychain holds no session any more, the server ended it. A Keychain that
    /// cannot be read now (locked) says nothing about the session.
    private func noticeEndedSession() {
        session.uploadsPaused(sessionStored: credentials.holdsSession)
    }

    private func startUploads() {
        uploadsRun?.cancel()
        let uploads = core.uploads
        uploadsRun = Task { await uploads.run() }
    }

    /// A note typed through Siri or Shortcuts joins today, like one typed on Home.
    func writeNote(_ text: String) async throws {
        try await core.writeNote(text)
        updateWidgets()
        await planRemindersAfterEntry()
    }

    // MARK: - The Record control

    /// Starts a recording (`stop` false) or stops the one under way, as the control's label showed. Signed out too:
    /// the recording is kept on the phone, its bar shows on the sign-in screen, and it goes up once its owner signs in
    /// again (another account cannot sign in while it waits: `ClientCore.signIn`).
    private func recordingRequested(stop: Bool) async {
        let home = makeHomeViewModel()
        if phase == .signedOut { signedOutRecording = home }
        await home.recordingControlTapped(stop: stop)
        RecordingControlBridge.setIsRecording(home.recorder.state.isActive)
        // The Live Activity at once: a recording started from the Lock Screen must show one, or the system stops it.
        recorderStateChanged()
        // A recording saved from the Lock Screen is today's entry: today's reminder goes, though the app never opened.
        if stop { await planRemindersAfterEntry() }
    }

    /// A button of the recording's Live Activity (or Resume on the paused notification), as it showed.
    private func recordingActivityAction(_ action: RecordingActivityAction) async {
        guard let home = homeViewModel else {
            // A button of an activity no recording of this launch showed: nothing to do but take it away.
            RecordingLiveActivity.update(for: .idle, elapsed: 0)
            return
        }
        switch action {
        case .pause: await home.pauseRequested(resume: false)
        case .resume: await home.pauseRequested(resume: true)
        case .stop: await home.recordingControlTapped(stop: true)
        }
        RecordingControlBridge.setIsRecording(home.recorder.state.isActive)
        recorderStateChanged()
        if action == .stop { await planRemindersAfterEntry() }
    }

    // MARK: - Where things are

    /// Application Support/MyDay: backed up (it is the person's diary), and readable after the first unlock so that
    /// background uploads can read recordings while the iPhone is locked (files inherit the folder's protection).
    private static func diaryDirectory() -> URL {
        let directory = URL.applicationSupportDirectory.appendingPathComponent("MyDay", isDirectory: true)
        let protection: [FileAttributeKey: Any] = [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication]
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: protection)
        try? FileManager.default.setAttributes(protection, ofItemAtPath: directory.path)
        return directory
    }
}
