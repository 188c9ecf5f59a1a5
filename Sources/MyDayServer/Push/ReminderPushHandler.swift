import Foundation
import Logging
import MyDaySearch
import SQLKit

/// The payload of a reminder notification: which browser, whose, and for which local day.
struct ReminderPush: JobPayload {
    var subscriptionID: UUID
    var userID: UUID
    /// `YYYY-MM-DD`.
    var day: String

    enum CodingKeys: String, CodingKey {
        case subscriptionID = "subscription_id"
        case userID = "user_id"
        case day
    }
}

/// Runs `push_reminder` jobs: sends the reminder to one subscribed browser. Nothing is sent when the browser was
/// unsubscribed, the reminder ended, or the day got an entry while the job waited; a push service that no longer
/// knows the browser ends its subscription.
struct ReminderPushHandler: JobHandler {
    static let kind = "push_reminder"
    var kind: String { Self.kind }

    let reminders: ReminderStore
    let subscriptions: PushSubscriptionStore
    let sender: PushSender
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let payload = try ReminderPush.decode(job.payload)
        guard let subscription = try await subscriptions.subscription(id: payload.subscriptionID, userID: payload.userID),
            try await reminders.reminder(userID: payload.userID) != nil, let day = LocalDay(iso: payload.day),
            try await !reminders.hasEntry(userID: payload.userID, on: day)
        else { return { _ in } }
        // A reminder is worth its hour (`Reminder.window`): a browser offline longer gets none.
        switch await sender.send(.reminder, to: subscription, ttl: Reminder.window * 60, topic: "reminder") {
        case .delivered:
            logger.info("reminder pushed", metadata: ["user": "\(payload.userID.lowercased)"])
        case .gone:
            try await subscriptions.delete(id: subscription.id, userID: subscription.userID)
            logger.info("push subscription ended by its push service", metadata: ["user": "\(payload.userID.lowercased)"])
        case .refused(let reason):
            throw JobFailure.permanent(reason)
        case .unavailable(let reason):
            throw PushUnavailable(description: reason)
        }
        return { _ in }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.warning("reminder notification not sent", metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }
}

/// A push service that is away or busy; the job tries again.
struct PushUnavailable: Error, CustomStringConvertible {
    let description: String
}
