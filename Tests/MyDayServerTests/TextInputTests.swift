import Foundation
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// Text as the API document counts it (Unicode scalars, never what a screen draws), without control characters, and
/// within the storage quota like audio.
@Suite struct TextInputTests {
    private func textEntry(_ text: String, id: String = UUID().uuidString.lowercased()) -> [String: Any] {
        ["id": id, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "duration_s": 0, "kind": "text", "text": text]
    }

    /// A new account with one typed entry, "A walk.", and that entry's id.
    private func personWithAnEntry(_ api: APIClient) async throws -> (APIClient.Session, String) {
        let session = try await api.register()
        let id = UUID().uuidString.lowercased()
        try await api.send(
            .post, "/v1/entries", token: session.accessToken, json: textEntry("A walk.", id: id), expecting: .created)
        return (session, id)
    }

    @Test(arguments: TestDatabase.available)
    func lengthsAreCountedInScalarsNotInWhatIsDrawn(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let (session, id) = try await personWithAnEntry(api)
            // Given a title that draws as one character but holds 201 scalars (a letter and 200 combining accents)
            let drawnAsOne = "e" + String(repeating: "\u{301}", count: 200)
            #expect(drawnAsOne.count == 1 && drawnAsOne.unicodeScalars.count == 201)
            // Then it is over the 200 the document allows, and so is a tag of 51 scalars drawn as one
            let title = try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: ["title": drawnAsOne])
            #expect(title.status == .unprocessableContent, "\(title.text)")
            let tag = "a" + String(repeating: "\u{308}", count: 50)
            let tags = try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: ["tags": [tag]])
            #expect(tags.status == .unprocessableContent)
            // And nothing changed
            let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
            #expect(entry["title"] == nil && (entry["tags"] as? [String]) == [])
            // While 200 scalars are fine
            let fits = String(drawnAsOne.unicodeScalars.prefix(200).map(Character.init))
            #expect(
                try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: ["title": fits]).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.available)
    func controlCharactersAreRefusedEverywhere(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let (session, id) = try await personWithAnEntry(api)
            for bad in ["nul\u{0}inside", "escape\u{1B}[31m", "bell\u{7}", "next\u{85}line"] {
                // An entry's text, title and tags
                let created = try await api.send(.post, "/v1/entries", token: session.accessToken, json: textEntry(bad))
                #expect(created.status == .unprocessableContent, "text \(bad.debugDescription): \(created.text)")
                for field in [["title": bad], ["text": bad], ["tags": [bad]]] as [[String: Any]] {
                    let edit = try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: field)
                    #expect(edit.status == .unprocessableContent, "\(field.keys) \(bad.debugDescription): \(edit.text)")
                }
                // An email address, to register, sign in or reset (never a 500 from the database)
                let email = "someone\(bad)@example.com"
                for path in ["/v1/auth/email/register", "/v1/auth/email/login"] {
                    let reply = try await api.send(.post, path, json: ["email": email, "password": "a long passphrase"])
                    #expect(reply.status == .unprocessableContent, "\(path) \(bad.debugDescription): \(reply.text)")
                }
                let forgot = try await api.send(.post, "/v1/auth/password/forgot", json: ["email": email])
                #expect(forgot.status == .unprocessableContent)
                // A search
                let query = bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let search = try await api.send(.get, "/v1/search?q=\(query)", token: session.accessToken)
                #expect(search.status == .unprocessableContent, "search \(bad.debugDescription): \(search.text)")
            }
            // Tabs and line breaks are text, and the entry is as it was
            let lines = try await api.send(
                .patch, "/v1/entries/\(id)", token: session.accessToken, json: ["text": "Morning:\n\tcoffee\r\n\tbread"])
            #expect(lines.status == .ok)
            #expect(try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json["title"] == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func textCountsTowardTheQuota(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.userQuotaBytes = 3_000 }
        try await server.run { api in
            // Given an account with room for 3,000 bytes and a typed entry of 1,200 (600 two-byte letters)
            let session = try await api.register()
            let id = UUID().uuidString.lowercased()
            let text = String(repeating: "é", count: 600)
            try await api.send(
                .post, "/v1/entries", token: session.accessToken, json: textEntry(text, id: id), expecting: .created)
            let stats = try await api.send(.get, "/v1/me/stats", token: session.accessToken).json
            #expect(stats["storage_used_bytes"] as? Int == 1_200, "\(stats)")
            // When another entry of 2,000 bytes is typed, then it does not fit, and nothing was kept
            let big = try await api.send(
                .post, "/v1/entries", token: session.accessToken, json: textEntry(String(repeating: "x", count: 2_000)))
            #expect(big.status == .contentTooLarge && big.errorCode == "quota_exceeded", "\(big.text)")
            // Nor does an edit that grows the entry past the quota; one that shrinks it always does
            let grown = try await api.send(
                .patch, "/v1/entries/\(id)", token: session.accessToken, json: ["text": String(repeating: "é", count: 1_600)])
            #expect(grown.status == .contentTooLarge)
            let shrunk = try await api.send(.patch, "/v1/entries/\(id)", token: session.accessToken, json: ["text": "Short."])
            #expect(shrunk.status == .ok)
            let after = try await api.send(.get, "/v1/me/stats", token: session.accessToken).json
            #expect(after["storage_used_bytes"] as? Int == 6)
            let listed = try await api.send(.get, "/v1/entries", token: session.accessToken).json["entries"] as? [Any]
            #expect(listed?.count == 1)
        }
    }
}
