import Foundation
import MyDayKit
import UserNotifications

/// A notification when the system paused a recording while My Day was not on screen (a call, a microphone it could not
/// use), so a recording never stops unnoticed; it goes once the recording goes on or ends. Shown only when the person
/// allowed notifications (the daily reminder asks).
enum RecordingPausedNotice {
    private static let identifier = "myday.recording-paused"

    static func update(for state: RecorderState, appIsActive: Bool) {
        let center = UNUserNotificationCenter.current()
        guard state == .interrupted, !appIsActive else {
            center.removePendingNotificationRequests(withIdentifiers: [identifier])
            center.removeDeliveredNotifications(withIdentifiers: [identifier])
            return
        }
        let content = UNMutableNotificationContent()
        content.title = String(localized: "Your recording is paused")
        content.body = String(localized: "Something else took the microphone. Tap to open My Day and resume.")
        content.sound = .default
        center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
    }
}
