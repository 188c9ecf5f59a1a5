import Foundation
import NIOCore
import Testing

@testable import MyDayServer

/// Entry-list pages kept in memory (`EntryPageCache`) are answered only while the account has not changed, whichever
/// node changed it, and never past a revoked token or a closed account.
@Suite struct EntryPageCacheTests {
    @Test(arguments: TestDatabase.available)
    func aKeptPageIsNeverAnsweredAfterAnotherNodeChangedTheAccount(_ database: TestDatabase) async throws {
        let first = try await TestServer.make(database)
        try await first.run { api in
            // Given an entry, and its page listed (and kept) by this node
            let session = try await api.register()
            let id = UUID().uuidString.lowercased()
            try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: ["id": id, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text", "text": "Before."],
                expecting: .created)
            let before = try await api.send(.get, "/v1/entries?limit=50", token: session.accessToken, expecting: .ok)
            #expect(try await api.send(.get, "/v1/entries?limit=50", token: session.accessToken).text == before.text)
            let cursor = try #require(before.json["next_cursor"] as? String)

            // When a second node on the same database changes the entry
            _ = try await TestServer(configuration: first.configuration).run { other in
                try await other.send(
                    .patch, "/v1/entries/\(id)", token: session.accessToken, json: ["title": "Changed elsewhere"],
                    expecting: .ok)
            }

            // Then this node's list and delta sync show the change
            let after = try await api.send(.get, "/v1/entries?limit=50", token: session.accessToken, expecting: .ok)
            let entries = try #require(after.json["entries"] as? [[String: Any]])
            #expect(entries.map { $0["title"] as? String } == ["Changed elsewhere"])
            let delta = try await api.send(.get, "/v1/entries?since=\(cursor)", token: session.accessToken, expecting: .ok)
            #expect((delta.json["entries"] as? [[String: Any]])?.count == 1)

            // When the person signs out everywhere, the kept page is not answered to the old token
            try await api.send(.get, "/v1/entries?limit=50", token: session.accessToken, expecting: .ok)
            try await api.send(.post, "/v1/auth/logout-all", token: session.accessToken, expecting: .noContent)
            #expect(try await api.send(.get, "/v1/entries?limit=50", token: session.accessToken).status == .unauthorized)
        }
    }

    @Test func pagesAreBoundedAndANewerPageIsNotReplacedByAnOlderOne() {
        // Given a cache of 10 KB that keeps pages of up to 4 KB
        let cache = EntryPageCache(maxBytes: 10_000, maxPageBytes: 4_000)
        let user = UUID()
        func key(_ cursor: Int) -> EntryPageCache.Key { .init(userID: user, cursor: cursor, limit: 50) }
        func page(_ size: Int, _ byte: UInt8) -> ByteBuffer { ByteBuffer(bytes: [UInt8](repeating: byte, count: size)) }

        // When a page is kept at sequence 5, then one read earlier (at 4) arrives late
        cache.keep(page(1_000, 1), for: key(0), changeSeq: 5)
        cache.keep(page(1_000, 2), for: key(0), changeSeq: 4)

        // Then the page of 5 is answered at 5 only
        #expect(cache.page(key(0), changeSeq: 5) == page(1_000, 1))
        #expect(cache.page(key(0), changeSeq: 4) == nil && cache.page(key(0), changeSeq: 6) == nil)

        // When a page over the page limit is offered, it is not kept
        cache.keep(page(4_001, 3), for: key(1), changeSeq: 5)
        #expect(cache.page(key(1), changeSeq: 5) == nil)

        // When more pages than fit are kept, the cache never holds more than its bound
        for cursor in 2..<40 {
            cache.keep(page(3_000, UInt8(cursor)), for: key(cursor), changeSeq: 5)
            #expect(cache.keptBytes <= 10_000)
        }
        #expect(cache.page(key(39), changeSeq: 5) == page(3_000, 39))

        // When the account is closed, its pages are forgotten, and another account's stay
        let other = EntryPageCache.Key(userID: UUID(), cursor: 0, limit: 50)
        cache.keep(page(100, 9), for: other, changeSeq: 1)
        cache.forget(userID: user)
        #expect(cache.page(key(39), changeSeq: 5) == nil && cache.page(other, changeSeq: 1) == page(100, 9))
        #expect(cache.keptBytes == 100)
    }
}
