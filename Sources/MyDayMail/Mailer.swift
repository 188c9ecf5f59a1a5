import Foundation

/// A plain-text email.
package struct MailMessage: Sendable, Equatable {
    /// A header beyond From, To, Subject and the MIME ones (`List-Unsubscribe`, say).
    package struct Header: Sendable, Equatable {
        package let name: String
        package let value: String
    }

    package let to: String
    package let subject: String
    package let body: String
    package let headers: [Header]

    package init(to: String, subject: String, body: String, headers: [(String, String)] = []) {
        self.to = to
        self.subject = subject
        self.body = body
        self.headers = headers.map { Header(name: $0.0, value: $0.1) }
    }
}

/// Sends mail: to the outbox folder by default, or through SMTP or SendGrid.
package protocol Mailer: Sendable {
    func send(_ message: MailMessage) async throws
}
