import Foundation
import NIOCore
import NIOFoundationCompat

/// One exchange with an OpenAI-compatible chat model (`POST /v1/chat/completions`): instructions, the person's words,
/// the model's answer; temperature 0.
package struct ChatCompletion: Sendable {
    package let baseURL: String
    package let model: String
    package let apiKey: String?
    package var timeout: Duration = .seconds(120)

    package init(baseURL: String, model: String, apiKey: String?) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
    }

    /// The model's answer; throws when the model cannot be reached or answers something else.
    package func complete(instructions: String, text: String) async throws -> String {
        struct Message: Codable {
            let role: String
            let content: String
        }
        struct Request: Encodable {
            let model: String
            let messages: [Message]
            let temperature: Double
        }
        struct Answer: Decodable {
            struct Choice: Decodable { let message: Message }
            let choices: [Choice]
        }
        let body = Request(
            model: model, messages: [.init(role: "system", content: instructions), .init(role: "user", content: text)],
            temperature: 0)
        let response = try await OpenAICompatible.post(
            baseURL: baseURL, path: "/v1/chat/completions", apiKey: apiKey, contentType: "application/json",
            body: .bytes(ByteBuffer(data: try JSONEncoder().encode(body))), timeout: timeout, maxResponseBytes: 4 * 1024 * 1024)
        guard (200..<300).contains(response.status),
            let content = try JSONDecoder().decode(Answer.self, from: Data(buffer: response.body)).choices.first?.message.content
        else { throw OpenAICompatible.Failure.unavailable(Int(response.status)) }
        return content
    }
}
