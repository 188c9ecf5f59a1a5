import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// Deleted means gone on the embedded store: after an entry is deleted for good, or an account closed, no file under the
/// data directory holds its words (the full-text index's postings, the write-ahead log and freed pages included).
@Suite struct DeletionLeavesNothingTests {
    /// Canary words that share no first letters with each other or the rest of the entry, and the middle of each: the
    /// index stores a term after the letters it shares with the one before it, so the middle is what any copy keeps.
    static let canaries = ["Zephyrquail", "Jacquardwolf", "vexillumkite"]
    static let middles = ["phyrqua", "cquardw", "xillumk"]

    /// Which of `needles` some file under `folder` holds, read as bytes.
    static func found(_ needles: [String], under folder: URL) -> Set<String> {
        var found = Set<String>()
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard let bytes = try? Data(contentsOf: file) else { continue }
            for needle in needles where bytes.range(of: Data(needle.utf8)) != nil { found.insert(needle) }
        }
        return found
    }

    private func writeCanaryEntry(_ api: APIClient, _ session: APIClient.Session) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let created = try await api.send(
            .post, "/v1/entries", token: session.accessToken,
            json: [
                "id": id, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "duration_s": 0, "kind": "text",
                "text": "Today I saw a \(Self.canaries[2]) over the river.",
            ])
        try #require(created.status == .created, "\(created.text)")
        let edited = try await api.send(
            .patch, "/v1/entries/\(id)", token: session.accessToken,
            json: ["title": Self.canaries[0], "tags": [Self.canaries[1]]])
        try #require(edited.status == .ok, "\(edited.text)")
        let hits = try await api.send(.get, "/v1/search?q=\(Self.canaries[1].lowercased())", token: session.accessToken)
        try #require(hits.text.contains(id), "the canary entry is not indexed: \(hits.text)")
        return id
    }

    @Test func aDeletedEntryLeavesNoWordInAnyFile() async throws {
        let server = try await TestServer.make(.sqlite)
        let folder = server.configuration.dataDirectory
        try await server.run { api in
            // Given an entry with canary words in its title, a tag and its text, and another entry beside it
            let session = try await api.register()
            let id = try await writeCanaryEntry(api, session)
            _ = try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: [
                    "id": UUID().uuidString.lowercased(), "created_at": "2026-05-02T08:30:00Z", "tz": "UTC", "duration_s": 0,
                    "kind": "text", "text": "A quiet day at home.",
                ])
            #expect(Self.found(Self.middles, under: folder) == Set(Self.middles), "the canaries never reached a file")
            // (the title and the tag taught the vocabulary their words)
            let learned = try await api.send(.get, "/v1/me/vocabulary", token: session.accessToken).text
            #expect(learned.contains(Self.canaries[0]) && learned.contains(Self.canaries[1]), "\(learned)")
            // When the entry is deleted, and then deleted for good from Recently deleted
            #expect(try await api.send(.delete, "/v1/entries/\(id)", token: session.accessToken).status == .noContent)
            #expect(try await api.send(.delete, "/v1/recently-deleted/\(id)", token: session.accessToken).status == .noContent)
            // Then no file under the data directory holds its words
            try await pollUntil("no file holds a deleted entry's words", deadline: .seconds(30), every: .milliseconds(200)) {
                Self.found(Self.middles, under: folder).isEmpty
            }
            // And the words it taught are forgotten with it
            #expect(try await api.send(.get, "/v1/me/vocabulary", token: session.accessToken).text == #"{"words":[]}"#)
        }
    }

    @Test func aClosedAccountLeavesNoWordAndNoAddressInAnyFile() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 1 }
        let folder = server.configuration.dataDirectory
        try await server.run { api in
            // Given an account whose entry holds canary words, and another person's account beside it
            let email = "canary-owner-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let session = try await api.register(email)
            _ = try await writeCanaryEntry(api, session)
            let other = try await api.register()
            _ = try await api.send(
                .post, "/v1/entries", token: other.accessToken,
                json: [
                    "id": UUID().uuidString.lowercased(), "created_at": "2026-05-02T08:30:00Z", "tz": "UTC", "duration_s": 0,
                    "kind": "text", "text": "Someone else's quiet day.",
                ])
            #expect(!Self.found(Self.middles + [email], under: folder).isEmpty)
            // When the account is closed and its deletion has run
            #expect(try await api.send(.delete, "/v1/me", token: session.accessToken).status == .accepted)
            // Then neither its words nor its address are in any file under the data directory
            try await pollUntil("no file holds a closed account's words", deadline: .seconds(60), every: .milliseconds(200)) {
                Self.found(Self.middles + [email], under: folder).isEmpty
            }
            // And the other person's diary is still there
            let left = try await api.send(.get, "/v1/search?q=someone", token: other.accessToken)
            #expect(left.text.contains("quiet day"))
        }
    }
}
