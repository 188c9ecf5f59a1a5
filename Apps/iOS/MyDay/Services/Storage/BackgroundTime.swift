import UIKit

/// Asks iOS for time to finish a piece of work when the app leaves the screen, such as encoding a recording that was
/// just stopped, so locking the iPhone right after Stop does not leave it half saved until the next launch.
@MainActor
final class BackgroundTime {
    private let name: String
    private var task: UIBackgroundTaskIdentifier = .invalid

    init(name: String) {
        self.name = name
    }

    /// Holds the time while `working` is true, gives it back when it turns false (or when iOS asks for it).
    func keep(while working: Bool) {
        if working, task == .invalid {
            task = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
                MainActor.assumeIsolated { self?.end() }
            }
        } else if !working {
            end()
        }
    }

    private func end() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}
