import Foundation

/// A plain-text email.
package struct MailMessage: Sendable, Equatable {
    package let to: String
    package let subject: String
    package let body: String

    package init(to: String, subject: String, body: String) {
        self.to = to
        self.subject = subject
        self.body = body
    }
}

/// Sends mail: to the outbox folder by default, or through SMTP or SendGrid.
package protocol Mailer: Sendable {
    func send(_ message: MailMessage) async throws
}
