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
            RootView()
                .environment(appDelegate.appModel)
                .onOpenURL { url in
                    guard !GIDSignIn.sharedInstance.handle(url) else { return }
                    let model = appDelegate.appModel
                    Task { _ = await model.openMailedLink(url) }
                }
        }
        .onChange(of: scenePhase) { _, phase in
            switch phase {
            case .active:
                let model = appDelegate.appModel
                Task { await model.refresh() }
                Task { await model.settings.refreshSpeechModel() }
                Task { await model.planReminders() }
                model.followChanges()
            case .background:
                let model = appDelegate.appModel
                Task { await model.handOverForBackground() }
                appDelegate.appModel.stopFollowingChanges()
                let unsent = (try? appDelegate.appModel.core.unsentCount()) ?? 0
                BackgroundRefresh.schedule(entriesWait: unsent > 0)
            default:
                break
            }
        }
    }
}
