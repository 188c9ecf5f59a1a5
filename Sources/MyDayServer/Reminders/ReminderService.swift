import Foundation
import Logging
import MyDaySearch
import ServiceLifecycle

/// Sends the reminders that are due, in every process that runs jobs: each round finds the reminders whose local
/// time has come on one of their days, and for each day that has no entry yet claims the day (once, whichever node
/// gets there first) and queues its mail and a notification to each subscribed browser in the same transaction. A day that has an entry is claimed too, so the
/// person is not reminded later that evening after deleting it.
struct ReminderService: Service {
    let reminders: ReminderStore
    let subscriptions: PushSubscriptionStore
    let clock: @Sendable () -> Date
    var interval: Duration = .seconds(30)
    let logger: Logger

    func run() async throws {
        await runRounds(every: interval, name: "reminder", logger: logger) { _ = try await round() }
    }

    /// One round at the clock's now; answers the reminders this node queued.
    @discardableResult
    func round() async throws -> Int {
        let now = clock()
        var queued = 0
        for reminder in try await reminders.all() {
            guard let day = reminder.dueDay(at: now) else { continue }
            let quiet = try await reminders.hasEntry(userID: reminder.userID, on: day)
            let browsers = quiet ? [] : try await subscriptions.subscriptions(userID: reminder.userID)
            let send = !quiet && (reminder.email || !browsers.isEmpty)
            let claimed = try await reminders.claim(reminder, day: day) { db in
                guard send else { return }
                if reminder.email {
                    let mail = ReminderMail(userID: reminder.userID, day: day.description)
                    _ = try await JobQueue.enqueue(
                        kind: ReminderMailHandler.kind, payload: mail.json, userID: reminder.userID, maxAttempts: 3, in: db)
                }
                for browser in browsers {
                    let push = ReminderPush(subscriptionID: browser.id, userID: reminder.userID, day: day.description)
                    _ = try await JobQueue.enqueue(
                        kind: ReminderPushHandler.kind, payload: push.json, userID: reminder.userID, maxAttempts: 3, in: db)
                }
            }
            if claimed && send { queued += 1 }
        }
        if queued > 0 { logger.info("reminders queued", metadata: ["count": "\(queued)"]) }
        return queued
    }
}
