import Foundation
import HTTPTypes
import MyDayTestSupport
import Testing

@testable import MyDayServer

@Suite struct RequestStrictnessTests {
    @Test func nullsAreRefusedAndLargeTimeOffsetsAreRead() async throws {
        try await TestServer.make(.sqlite).run { api in
            let session = try await api.register()
            let id = UUID()
            // A null is not "leave it out": it is refused, and nothing is created
            let withNull = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: [
                    "id": id.uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text", "text": "hi",
                    "language": NSNull(),
                ])
            #expect(withNull.status == .badRequest && withNull.text.contains("'language' must not be null"))
            #expect(try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).status == .notFound)

            // RFC 3339 offsets beyond ±18:00 are valid and read exactly
            let far = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: ["id": id.uuidString, "created_at": "2026-05-01T20:30:00+19:30", "tz": "UTC", "kind": "text", "text": "hi"])
            #expect(far.status == .created)
            #expect((far.json["entry"] as? [String: Any])?["created_at"] as? String == "2026-05-01T01:00:00.000Z")

            let garbage = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: ["id": UUID().uuidString, "created_at": "yesterday", "tz": "UTC", "kind": "text", "text": "hi"])
            #expect(garbage.status == .badRequest && garbage.text.contains("RFC 3339"))
        }
    }

    @Test func theListAndSearchAnswerOnlyRequestsThatTakeJSON() async throws {
        try await TestServer.make(.sqlite).run { api in
            let session = try await api.register()
            for path in ["/v1/entries", "/v1/search?q=lake"] {
                // Given a request that accepts only HTML: without a token it is refused as unauthenticated
                let html: HTTPFields = [.accept: "text/html"]
                #expect(try await api.send(.get, path, headers: html).status == .unauthorized, "\(path)")
                // With one, as a type the server cannot answer with, naming the type it has
                let refused = try await api.send(.get, path, token: session.accessToken, headers: html)
                #expect(refused.status == .notAcceptable && refused.errorCode == "http_406", "\(path): \(refused.text)")
                #expect(refused.errorMessage?.contains("application/json") == true)
                // And JSON, or anything, is answered
                for accept in ["application/json", "*/*", "application/*, text/html;q=0.5"] {
                    let answered = try await api.send(.get, path, token: session.accessToken, headers: [.accept: accept])
                    #expect(answered.status == .ok, "\(path) \(accept): \(answered.text)")
                }
            }
        }
    }
}
