import Foundation
import MyDayKit
import UserNotifications

/// The daily reminder as local notifications: one for each of the next seven reminder days, not today once today has
/// an entry (so they are planned again whenever the app comes to the front or leaves the screen, and after a note
/// written through Siri).
enum ReminderNotifications {
    private static let prefix = "myday.reminder."

    /// Replaces the planned reminders with those `times`; asks for permission the first time there is one to plan.
    static func plan(_ times: [Date]) async {
        let center = UNUserNotificationCenter.current()
        let pending = await center.pendingNotificationRequests().map(\.identifier).filter { $0.hasPrefix(prefix) }
        center.removePendingNotificationRequests(withIdentifiers: pending)
        guard !times.isEmpty, (try? await center.requestAuthorization(options: [.alert, .sound])) == true else { return }
        for time in times {
            let content = UNMutableNotificationContent()
            content.title = String(localized: "A minute for your diary?")
            content.body = String(localized: "Nothing in My Day today yet. Tap to say how your day went.")
            content.sound = .default
            // At the moment itself, as the server reminds: a calendar trigger would follow the phone's wall clock into
            // another time zone, where the reminder's own zone is meant.
            let request = UNNotificationRequest(
                identifier: prefix + "\(Int(time.timeIntervalSince1970))", content: content,
                trigger: UNTimeIntervalNotificationTrigger(timeInterval: max(1, time.timeIntervalSinceNow), repeats: false))
            try? await center.add(request)
        }
    }
}
