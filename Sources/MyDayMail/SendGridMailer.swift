import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// Sends mail through SendGrid's v3 HTTP API (`POST /v3/mail/send`, bearer API key, 202 on success).
package struct SendGridMailer: Mailer {
    /// `https://api.sendgrid.com` unless told otherwise (`MYDAY_SENDGRID_URL`).
    package let baseURL: String
    package let apiKey: String
    package let from: String

    package init(baseURL: String, apiKey: String, from: String) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.from = from
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package func send(_ message: MailMessage) async throws {
        let sender = MailAddress(from)
        var payload: [String: Any] = [
            "personalizations": [["to": [["email": message.to]]]],
            "from": sender.name.map { ["email": sender.address, "name": $0] } ?? ["email": sender.address],
            "subject": message.subject,
            "content": [["type": "text/plain", "value": message.body]],
        ]
        if !message.headers.isEmpty {
            payload["headers"] = Dictionary(message.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        }
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
package struct MailAddress: Sendable, Equatable {
    package let name: String?
    package let address: String

    package init(_ text: String) {
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
