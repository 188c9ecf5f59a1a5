import Foundation
import MyDayModels

/// Writes each message as an RFC 5322 `.eml` file into a folder (`data/outbox`), for a
/// self-hosted server without a mail service, or for tests. A file appears only complete.
package struct OutboxMailer: Mailer {
    package let folder: URL
    package let from: String

    package init(folder: URL, from: String) {
        self.folder = folder
        self.from = from
    }

    package func send(_ message: MailMessage) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let now = Date()
        let id = UUID().lowercasedString
        let name =
            "\(now.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.omitted)))-\(id.prefix(8)).eml"
        let temporary = folder.appendingPathComponent(".\(name).part")
        try Data(Self.rfc5322(message, from: from, date: now, messageID: "<\(id)@myday>").utf8).write(to: temporary)
        try FileManager.default.moveItem(at: temporary, to: folder.appendingPathComponent(name))
    }

    /// The message with its headers, CRLF line ends, UTF-8 body as quoted-printable-free 8bit text.
    package static func rfc5322(_ message: MailMessage, from: String, date: Date, messageID: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let headers =
            [
                "From: \(from)", "To: \(message.to)", "Subject: \(message.subject)", "Date: \(formatter.string(from: date))",
                "Message-ID: \(messageID)", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: 8bit",
            ] + message.headers.map { "\($0.name): \($0.value)" }
        let body = message.body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + body + "\r\n"
    }
}
