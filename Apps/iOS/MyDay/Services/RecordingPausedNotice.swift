import Foundation
import MyDayKit
import UserNotifications

/// A notification when the system paused a recording while My Day was not on screen (a call, a microphone it could not
/// use), so a recording never stops unnoticed; its Resume button opens My Day and records on. It goes once the
/// recording goes on or ends. Shown only when the person allowed notifications (the daily reminder asks).
enum RecordingPausedNotice {
    private static let identifier = "myday.recording-paused"
    static let category = "myday.recording-paused"
    static let resumeAction = "myday.resume-recording"

    /// Declares the notification's Resume button; called once at launch.
    static func register() {
        let resume = UNNotificationAction(
            identifier: resumeAction, title: String(localized: "Resume"), options: [.foreground])
        UNUserNotificationCenter.current().setNotificationCategories([
            UNNotificationCategory(identifier: category, actions: [resume], intentIdentifiers: [])
        ])
    }

    static func update(for state: RecorderState, appIsActive: Bool) {
        let center = UNUserNotificationCenter.current()
        guard state == .interrupted, !appIsActive else {
            center.removePendingNotificationRequests(withIdentifiers: [identifier])
            center.removeDeliveredNotifications(withIdentifiers: [identifier])
            return
        }
        let content = UNMutableNotificationContent()
        content.title = String(localized: "Your recording is paused")
        content.body = String(localized: "Something else took the microphone. Tap Resume to record on.")
        content.sound = .default
        content.categoryIdentifier = category
        center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
    }
}

/// Hears the person's answer to a notification: Resume on the paused recording's notice records on.
final class NotificationResponses: NSObject, UNUserNotificationCenterDelegate, Sendable {
    private let resume: @MainActor @Sendable () async -> Void

    init(resume: @escaping @MainActor @Sendable () async -> Void) {
        self.resume = resume
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        guard response.actionIdentifier == RecordingPausedNotice.resumeAction else { return }
        await resume()
    }
}
