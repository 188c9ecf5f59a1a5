import Foundation
import Logging
import MyDayMail
import SQLKit

/// The payload of the account's own mails: a verification link for a user, or a password-reset link for whoever has
/// an address (a reset asked for an address nobody has mails nothing, and its request could not tell).
struct AccountMail: JobPayload {
    enum Kind: String, Sendable {
        case verification = "mail_verification"
        case passwordReset = "mail_password_reset"
    }

    var userID: UUID?
    var email: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email
    }
}

/// Runs `mail_verification` and `mail_password_reset` jobs: makes a single-use link on `MYDAY_PUBLIC_URL` and mails it
/// to the account's address. Without a public URL nothing is mailed (a link on a `Host` a request named could lead
/// anywhere).
struct AccountMailHandler: JobHandler {
    let mail: AccountMail.Kind
    var kind: String { mail.rawValue }

    let users: UserStore
    let mailer: any Mailer
    let publicURL: String?
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let payload = try AccountMail.decode(job.payload)
        var user: UserRecord?
        if mail == .verification, let id = payload.userID { user = try await users.user(id: id) }
        if mail == .passwordReset, let email = payload.email { user = try await users.user(email: email) }
        guard let user, mail == .passwordReset || !user.emailVerified else { return { _ in } }
        guard let origin = PublicURL.origin(publicURL) else {
            logger.notice("account mail not sent: MYDAY_PUBLIC_URL is not set", metadata: ["kind": "\(kind)"])
            return { _ in }
        }
        let purpose: EmailTokens.Purpose = mail == .verification ? .verification : .passwordReset
        guard let token = try await users.issueEmailToken(userID: user.id, email: user.email, purpose: purpose) else {
            return { _ in }
        }
        let message =
            switch mail {
            case .verification:
                MailMessage(
                    to: user.email, subject: "Confirm your email address for My Day",
                    body: """
                        Open this link to confirm that this address is yours:
                        \(origin)/#/verify/\(token)

                        It works once, for 7 days. My Day mails this address your export links and, when you ask, a \
                        way to set a new password. If you did not make a My Day account, someone used your address: \
                        open the link to make the account yours (it asks you for a password), or ignore this mail.
                        """)
            case .passwordReset:
                MailMessage(
                    to: user.email, subject: "Set a new password for My Day",
                    body: """
                        Someone, probably you, asked to set a new password for the My Day account of this address.
                        Open this link to choose it:
                        \(origin)/#/reset/\(token)

                        It works once, for 30 minutes, and signs out every device that is signed in now. If you did \
                        not ask, ignore this mail: your password stays as it is.
                        """)
            }
        try await mailer.send(message)
        logger.info("account mail sent", metadata: ["kind": "\(kind)", "user": "\(user.id.lowercased)"])
        return { _ in }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.error("account mail gave up", metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }
}
