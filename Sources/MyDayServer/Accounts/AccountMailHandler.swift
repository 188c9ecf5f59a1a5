import Foundation
import Logging
import MyDayMail
import SQLKit

/// The payload of the account's own mails: a verification link for a user, a password-reset link for whoever has an
/// address (a reset asked for an address nobody has mails nothing, and its request could not tell), a link that
/// confirms a user's new address (`email` is the new one), and word to the old address that it changed (`email` is
/// the old one).
struct AccountMail: JobPayload {
    enum Kind: String, Sendable, CaseIterable {
        case verification = "mail_verification"
        case passwordReset = "mail_password_reset"
        case emailChange = "mail_email_change"
        case emailChanged = "mail_email_changed"
    }

    var userID: UUID?
    var email: String?
    /// The account's `token_version` when a new address was asked for: a sign-out everywhere, a new password or a reset
    /// since then (which end whoever asked) leave the mail without a link, even when its job was already running. A
    /// change's mail without it (asked for before it existed) makes no link either: the person asks again.
    var tokenVersion: Int?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email
        case tokenVersion = "token_version"
    }
}

/// Runs the account's mail jobs (one handler per `AccountMail.Kind`): makes a single-use link on `MYDAY_PUBLIC_URL`
/// when the mail carries one and sends it. Without a public URL nothing is mailed (a link on a `Host` a request named
/// could lead anywhere).
struct AccountMailHandler: JobHandler {
    let mail: AccountMail.Kind
    var kind: String { mail.rawValue }

    let users: UserStore
    let mailer: any Mailer
    let publicURL: String?
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let payload = try AccountMail.decode(job.payload)
        guard let origin = PublicURL.origin(publicURL) else {
            logger.notice("account mail not sent: MYDAY_PUBLIC_URL is not set", metadata: ["kind": "\(kind)"])
            return { _ in }
        }
        guard let message = try await message(for: payload, origin: origin) else { return { _ in } }
        try await mailer.send(message)
        logger.info("account mail sent", metadata: ["kind": "\(kind)", "job": "\(job.id.lowercased)"])
        return { _ in }
    }

    /// The mail to send now; nil when it has nothing left to say (the address was confirmed meanwhile, say).
    private func message(for payload: AccountMail, origin: String) async throws -> MailMessage? {
        switch mail {
        case .verification:
            guard let id = payload.userID, let user = try await users.user(id: id), !user.emailVerified,
                let token = try await users.issueEmailToken(userID: id, email: user.email, purpose: .verification)
            else { return nil }
            return MailMessage(
                to: user.email, subject: "Confirm your email address for My Day",
                body: """
                    Open this link to confirm that this address is yours:
                    \(origin)/#/verify/\(token)

                    It works once, for 7 days. My Day mails this address your export links and, when you ask, a way to \
                    set a new password. If you did not make a My Day account, someone used your address: open the link \
                    to make the account yours (it asks you for a password), or ignore this mail.
                    """)
        case .passwordReset:
            guard let email = payload.email, let user = try await users.user(email: email),
                let token = try await users.issueEmailToken(userID: user.id, email: user.email, purpose: .passwordReset)
            else { return nil }
            return MailMessage(
                to: user.email, subject: "Set a new password for My Day",
                body: """
                    Someone, probably you, asked to set a new password for the My Day account of this address.
                    Open this link to choose it:
                    \(origin)/#/reset/\(token)

                    It works once, for 30 minutes, and signs out every device that is signed in now. If you did not \
                    ask, ignore this mail: your password stays as it is.
                    """)
        case .emailChange:
            guard let id = payload.userID, let address = payload.email, let version = payload.tokenVersion,
                let user = try await users.user(id: id), user.email != address,
                let token = try await users.issueEmailToken(
                    userID: id, email: address, purpose: .emailChange, whileTokenVersion: version)
            else { return nil }
            return MailMessage(
                to: address, subject: "Confirm your new address for My Day",
                body: """
                    Someone, probably you, asked to use this address for their My Day account (now \(user.email)).
                    Open this link to make the change:
                    \(origin)/#/verify/\(token)

                    It works once, for 24 hours; until it is opened nothing changes. If you did not ask, ignore this \
                    mail.
                    """)
        case .emailChanged:
            guard let id = payload.userID, let old = payload.email, let user = try await users.user(id: id),
                user.email != old
            else { return nil }
            return MailMessage(
                to: old, subject: "Your My Day address was changed",
                body: """
                    The My Day account that used this address now uses \(user.email): sign-ins, export links and \
                    password links go there from now on.

                    If you did not make this change, someone who could sign in to your account did: tell whoever runs \
                    this My Day server (\(origin)) at once.
                    """)
        }
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        logger.error("account mail gave up", metadata: ["job": "\(job.id.lowercased)", "reason": "\(reason)"])
    }
}
