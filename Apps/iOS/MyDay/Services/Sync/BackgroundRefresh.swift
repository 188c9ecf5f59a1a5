import BackgroundTasks
import Foundation
import MyDayKit

/// Work done while My Day is not open: a periodic refresh (send what waits, bring in the server's changes) and, while
/// entries wait to go up, a processing task that needs the network, which the system runs when the iPhone is idle.
/// Both do the same work; the second makes sure entries do not wait for the next time the app is opened.
enum BackgroundRefresh {
    /// Permitted in Info.plist as `$(PRODUCT_BUNDLE_IDENTIFIER).refresh`.
    static var refreshIdentifier: String { (Bundle.main.bundleIdentifier ?? "MyDay") + ".refresh" }
    /// Permitted in Info.plist as `$(PRODUCT_BUNDLE_IDENTIFIER).sending`.
    static var sendingIdentifier: String { (Bundle.main.bundleIdentifier ?? "MyDay") + ".sending" }
    private static let interval: TimeInterval = 30 * 60

    /// Registers what both tasks do (`work` answers whether it succeeded); must run before launch finishes.
    static func register(_ work: @escaping @Sendable () async -> Bool) {
        for identifier in [refreshIdentifier, sendingIdentifier] {
            _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                if task is BGAppRefreshTask { scheduleRefresh() }
                let completion = FirstCallOnly<Bool> { task.setTaskCompleted(success: $0) }
                let job = Task { completion(await work()) }
                task.expirationHandler = {
                    job.cancel()
                    completion(false)
                }
            }
        }
    }

    /// Asks for the next refresh in about half an hour and, when `entriesWait`, for a run with the network soon.
    /// Refused on the Simulator and when the person turned Background App Refresh off; the app then does the same
    /// work when it opens.
    static func schedule(entriesWait: Bool) {
        scheduleRefresh()
        guard entriesWait else { return }
        let sending = BGProcessingTaskRequest(identifier: sendingIdentifier)
        sending.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(sending)
    }

    private static func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: interval)
        try? BGTaskScheduler.shared.submit(request)
    }
}
