import Foundation
import Logging
import MyDayMail
import MyDaySearch
import SQLKit

/// The payload of a reminder mail: whose, and for which local day.
struct ReminderMail: JobPayload {
    var userID: UUID
    /// `YYYY-MM-DD`.
    var day: String

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case day
    }
}

/// Runs `mail_reminder` jobs: mails the reminder to the account's confirmed address, with a link that stops reminders
/// in one click (also as `List-Unsubscribe`, RFC 8058). Nothing is sent when the address is not confirmed, the
/// reminder was ended or turned to no mail meanwhile, or the day got an entry while the job waited.
struct ReminderMailHandler: JobHandler {
    static let kind = "mail_reminder"
    var kind: String { Self.kind }

    let reminders: ReminderStore
    let users: UserStore
    let stopTokens: ReminderStopToken
    let mailer: any Mailer
    let publicURL: String?
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let payload = try ReminderMail.decode(job.payload)
        guard let user = try await users.user(id: payload.userID), user.emailVerified,
            let reminder = try await reminders.reminder(userID: user.id), reminder.email, let day = LocalDay(iso: payload.day),
            try await !reminders.hasEntry(userID: user.id, on: day)
        else { return { _ in } }
        guard let origin = PublicURL.origin(publicURL) else {
            logger.notice("reminder not mailed: MYDAY_PUBLIC_URL is not set")
            return { _ in }
        }
        let token = stopTokens.token(for: user.id)
        let stop = "\(origin)/#/stop-reminders/\(token)"
        try await mailer.send(
            MailMessage(
                to: user.email, subject: "A minute for your diary?",
                body: """
                    Nothing in My Day today yet. Press one button and say how your day went:
                    \(origin)/

                    You asked for this reminder at \(reminder.time) on the days you chose. To stop these mails, open:
                    \(stop)
                    """,
                headers: [
                    ("List-Unsubscribe", "<\(origin)/v1/reminders/stop?token=\(token)>"),
                    ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
                ]))
        logger.info("reminder mailed", metadata: ["user": "\(user.id.lowercased)"])
        return { _ in }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.error("reminder mail gave up", metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }
}
