import Foundation

/// A plain-text email.
struct MailMessage: Sendable, Equatable {
    let to: String
    let subject: String
    let body: String
}

/// Sends mail: to the outbox folder by default, or through SMTP or SendGrid.
protocol Mailer: Sendable {
    func send(_ message: MailMessage) async throws
}
