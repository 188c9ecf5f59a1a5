import AsyncHTTPClient
import Foundation
import NIOCore

/// Sends mail through SendGrid's v3 HTTP API (`POST /v3/mail/send`, bearer API key, 202 on success).
struct SendGridMailer: Mailer {
    /// `https://api.sendgrid.com` unless told otherwise (`MYDAY_SENDGRID_URL`).
    let baseURL: String
    let apiKey: String
    let from: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func send(_ message: MailMessage) async throws {
        let sender = MailAddress(from)
        let payload: [String: Any] = [
            "personalizations": [["to": [["email": message.to]]]],
            "from": sender.name.map { ["email": sender.address, "name": $0] } ?? ["email": sender.address],
            "subject": message.subject,
            "content": [["type": "text/plain", "value": message.body]],
        ]
        var request = HTTPClientRequest(url: (baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL) + "/v3/mail/send")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let answer = try await response.body.collect(upTo: 64 * 1024)
        guard (200..<300).contains(response.status.code) else {
            throw Failure(description: "SendGrid answered \(response.status.code): \(String(buffer: answer).prefix(200))")
        }
    }
}

/// `Name <address>` or a bare address, split.
struct MailAddress: Sendable, Equatable {
    let name: String?
    let address: String

    init(_ text: String) {
        if let open = text.lastIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close {
            address = String(text[text.index(after: open)..<close])
            let display = text[..<open].trimmingCharacters(in: .whitespaces)
            name = display.isEmpty ? nil : display
        } else {
            address = text.trimmingCharacters(in: .whitespaces)
            name = nil
        }
    }
}
