import MyDayKit
import UIKit

/// What SwiftUI has no place for: the app model every launch needs (background launches too, which show no window),
/// the background refresh handler, the system's handler for background upload events, and Google's configuration.
@MainActor
final class AppDelegate: NSObject, UIApplicationDelegate {
    /// The app model once the diary opened, or why it could not; made on first use, which
    /// `application(_:didFinishLaunchingWithOptions:)` is.
    lazy var launch = DiaryLaunch<AppModel> { try AppModel() }

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        GoogleSignInConfiguration.configure()
        let launch = launch
        // Registered on every launch, as iOS requires; a diary that could not open has nothing to do.
        BackgroundRefresh.register { await launch.model?.refreshInBackground() ?? false }
        BackgroundSessionCompletion.followUp = { await launch.model?.refresh() }
        return true
    }

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        URLSessionBackgroundTransfer.shared.handleEvents(forSession: identifier, completionHandler: completionHandler)
    }
}
