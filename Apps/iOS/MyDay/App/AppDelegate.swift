import UIKit

/// What SwiftUI has no place for: the app model every launch needs (background launches too, which show no window),
/// the background refresh handler, the system's handler for background upload events, and Google's configuration.
@MainActor
final class AppDelegate: NSObject, UIApplicationDelegate {
    /// Made on first use, which `application(_:didFinishLaunchingWithOptions:)` is.
    lazy var appModel = AppModel()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        GoogleSignInConfiguration.configure()
        let model = appModel
        BackgroundRefresh.register { await model.refreshInBackground() }
        BackgroundSessionCompletion.followUp = { await model.refresh() }
        return true
    }

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        URLSessionBackgroundTransfer.shared.handleEvents(forSession: identifier, completionHandler: completionHandler)
    }
}
