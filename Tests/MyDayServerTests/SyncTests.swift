import Foundation
import Testing

@Suite(.serialized) struct SyncTests {
    private func note(_ api: APIClient, _ session: APIClient.Session, _ text: String, id: UUID = UUID()) async throws -> String {
        let reply = try await api.send(
            .post, "/v1/entries", token: session.accessToken,
            json: [
                "id": id.uuidString, "created_at": "2026-04-0\(Int.random(in: 1...9))T12:00:00Z", "tz": "UTC", "kind": "text",
                "text": text,
            ])
        try #require(reply.status == .created)
        return id.uuidString.lowercased()
    }

    @Test(arguments: TestDatabase.available)
    func deltaSyncPagesThroughChangesInOrder(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let session = try await api.register()
            var ids: [String] = []
            for index in 0..<7 { ids.append(try await note(api, session, "Note number \(index)")) }

            // When a client pulls pages of three from the beginning
            var cursor: String?
            var seen: [String] = []
            var pages = 0
            repeat {
                let path = "/v1/entries?limit=3" + (cursor.map { "&since=\($0)" } ?? "")
                let page = try await api.send(.get, path, token: session.accessToken).json
                seen += (page["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["next_cursor"] as? String
                pages += 1
                if page["has_more"] as? Bool != true { break }
            } while pages < 10

            // Then it sees every entry once, in the order they changed
            #expect(seen == ids)
            #expect(pages == 3)

            // When one entry is edited and one deleted, the next sync has exactly those two changes
            try await api.send(
                .patch, "/v1/entries/\(ids[2])", token: session.accessToken, json: ["title": "Edited"], expecting: .ok)
            try await api.send(.delete, "/v1/entries/\(ids[4])", token: session.accessToken, expecting: .noContent)
            let delta = try await api.send(.get, "/v1/entries?since=\(cursor!)", token: session.accessToken).json
            #expect((delta["entries"] as? [[String: Any]])?.map { $0["id"] as? String } == [ids[2]])
            #expect(delta["deleted_ids"] as? [String] == [ids[4]])
            #expect(delta["has_more"] as? Bool == false)

            // And a sync from the newest cursor is empty, keeping the cursor
            let newest = try #require(delta["next_cursor"] as? String)
            let empty = try await api.send(.get, "/v1/entries?since=\(newest)", token: session.accessToken).json
            #expect((empty["entries"] as? [Any])?.isEmpty == true && (empty["deleted_ids"] as? [Any])?.isEmpty == true)
            #expect(empty["next_cursor"] as? String == newest)
        }
    }

    @Test(arguments: TestDatabase.available)
    func concurrentWritesNeverHideAChangeFromACursor(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let session = try await api.register()
            // Given 40 notes written by 8 concurrent clients while a reader syncs
            let written = try await withThrowingTaskGroup(of: [String].self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        var ids: [String] = []
                        for index in 0..<5 { ids.append(try await note(api, session, "Writer \(writer) note \(index)")) }
                        return ids
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.formUnion($1) }
            }
            // Then incremental pulls taken at any time add up to all of them, none twice
            var cursor = "0"
            var seen: [String] = []
            while true {
                let page = try await api.send(.get, "/v1/entries?limit=7&since=\(cursor)", token: session.accessToken).json
                seen += (page["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["next_cursor"] as? String ?? cursor
                if page["has_more"] as? Bool != true { break }
            }
            #expect(seen.count == 40 && Set(seen) == written)
        }
    }

    @Test(arguments: TestDatabase.available)
    func searchFindsWordsInTitlesAndTranscripts(_ database: TestDatabase) async throws {
        try await TestServer.make(database).run { api in
            let session = try await api.register()
            let walk = try await note(api, session, "We walked to the harbour in the rain.")
            _ = try await note(api, session, "Quiet evening with a book.")
            let titled = try await note(api, session, "Lunch.")
            try await api.send(
                .patch, "/v1/entries/\(titled)", token: session.accessToken, json: ["title": "Rainy lunch"], expecting: .ok)

            func found(_ query: String) async throws -> [String] {
                let hits = try await api.send(.get, "/v1/search?q=\(query)", token: session.accessToken).json["hits"]
                return (hits as? [[String: Any]] ?? []).compactMap { ($0["entry"] as? [String: Any])?["id"] as? String }
            }
            #expect(Set(try await found("RAIN")) == [walk, titled])
            #expect(try await found("harbour%20rain") == [walk])
            // The list is only the list: a search parameter there changes nothing
            let listed = try await api.send(.get, "/v1/entries?q=harbour", token: session.accessToken).json["entries"]
            #expect((listed as? [Any])?.count == 3)
        }
    }

    @Test func badCursorsAndLimitsAre400() async throws {
        try await TestServer.make(.sqlite).run { api in
            let session = try await api.register()
            for query in ["since=-1", "since=abc", "limit=0", "limit=501", "limit=ten"] {
                let reply = try await api.send(.get, "/v1/entries?\(query)", token: session.accessToken)
                #expect(reply.status == .badRequest, "\(query) → \(reply.status)")
            }
        }
    }
}
