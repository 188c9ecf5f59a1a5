import GoogleSignIn
import SwiftUI

/// My Day: one window showing `RootView`, brought up to date whenever it comes to the front.
///
/// The app model lives in `AppDelegate` rather than in `@State` here, because background launches (a refresh, upload
/// events) need it and show no window.
@main
struct MyDayApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            if let model = appDelegate.launch.model {
                RootView()
                    .environment(model)
                    .onOpenURL { url in
                        // A file shared with My Day (a voice memo, a Day One export) is imported.
                        if url.isFileURL {
                            model.sharedFiles.append(url)
                            return
                        }
                        guard !GIDSignIn.sharedInstance.handle(url) else { return }
                        Task { _ = await model.openMailedLink(url) }
                    }
            } else if let problem = appDelegate.launch.problem {
                DiaryUnavailableView(problem: problem) { appDelegate.launch.tryAgain() }
            }
        }
        .onChange(of: scenePhase) { _, phase in
            guard let model = appDelegate.launch.model else { return }
            switch phase {
            case .active:
                model.settings.lock.appReturned(at: .now)
                Task { await model.refresh() }
                Task { await model.settings.refreshSpeechModel() }
                Task { await model.planReminders() }
                model.followChanges()
            case .background:
                model.settings.lock.appLeft(at: .now)
                Task { await model.handOverForBackground() }
                model.stopFollowingChanges()
                let unsent = (try? model.core.unsentCount()) ?? 0
                BackgroundRefresh.schedule(entriesWait: unsent > 0)
            default:
                break
            }
        }
    }
}
