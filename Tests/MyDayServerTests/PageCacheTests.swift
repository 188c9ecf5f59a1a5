import Foundation
import MyDayTestSupport
import NIOCore
import Testing

@testable import MyDayServer

/// Entry-list and search pages kept in memory (`PageCache`) are answered only while the account has not changed,
/// whichever node changed it, and never past a revoked token or a closed account; a search's only while its date phrase
/// means the same days.
@Suite struct PageCacheTests {
    @Test(arguments: TestDatabase.available)
    func aKeptPageIsNeverAnsweredAfterAnotherNodeChangedTheAccount(_ database: TestDatabase) async throws {
        let first = try await TestServer.make(database)
        try await first.run { api in
            // Given an entry, and its page listed (and kept) by this node
            let session = try await api.register()
            let id = try await api.createTypedEntry(session, text: "Before.")
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

    @Test(arguments: TestDatabase.available)
    func aKeptSearchIsNeverAnsweredAfterTheAccountChangedOrItsDaysMovedOn(_ database: TestDatabase) async throws {
        let clock = ManualClock(at: Date(timeIntervalSince1970: 1_773_835_200))  // 2026-03-18T12:00:00Z
        let first = try await TestServer.make(database) { configuration in configuration.clock = clock.date }
        try await first.run { api in
            // Given a walk written this morning, found by a search and by one that says "today"
            let session = try await api.register()
            func found(_ query: String) async throws -> (ids: [String], titles: [String?], bytes: String) {
                let reply = try await api.send(.get, "/v1/search?\(query)&tz=UTC", token: session.accessToken, expecting: .ok)
                let entries = (reply.json["hits"] as? [[String: Any]] ?? []).compactMap { $0["entry"] as? [String: Any] }
                return (entries.compactMap { $0["id"] as? String }, entries.map { $0["title"] as? String }, reply.text)
            }
            let walk = try await api.createTypedEntry(session, text: "Walk by the river.", createdAt: "2026-03-18T08:00:00Z")
            let before = try await found("q=walk")
            let again = try await found("q=walk")
            #expect(before.ids == [walk] && again.bytes == before.bytes)
            #expect(try await found("q=walk+today").ids == [walk])

            // When a second node on the same database retitles it and writes another walk
            let second = try await TestServer(configuration: first.configuration).run { other in
                try await other.send(
                    .patch, "/v1/entries/\(walk)", token: session.accessToken, json: ["title": "By the river"],
                    expecting: .ok)
                return try await other.createTypedEntry(session, text: "Walk home.", createdAt: "2026-03-18T09:00:00Z")
            }

            // Then this node's searches find both, as they are now
            let after = try await found("q=walk")
            #expect(Set(after.ids) == [walk, second] && after.titles.contains("By the river"))
            #expect(Set(try await found("q=walk+today").ids) == [walk, second])

            // When the day moves on, "today" is the new day and "yesterday" the walks'
            clock.advance(seconds: 86_400)
            #expect(try await found("q=walk+today").ids.isEmpty)
            #expect(Set(try await found("q=walk+yesterday").ids) == [walk, second])

            // When a search with a next page is asked again once a millisecond has passed, the kept answer is given:
            // its cursor still holds the moment it was first answered
            let paged = try await api.send(.get, "/v1/search?q=walk&limit=1", token: session.accessToken, expecting: .ok)
            let nextCursor = try #require(paged.json["next_cursor"] as? String)
            let cursor = try #require(SearchCursor(nextCursor))
            try await pollUntil("a millisecond passed") { StoredTime.now() > cursor.asOf }
            #expect(try await api.send(.get, "/v1/search?q=walk&limit=1", token: session.accessToken).text == paged.text)

            // When one walk is deleted, and then brought back, the same search says so each time
            try await api.send(.delete, "/v1/entries/\(second)", token: session.accessToken, expecting: .noContent)
            #expect(try await found("q=walk").ids == [walk])
            try await api.send(.post, "/v1/recently-deleted/\(second)/restore", token: session.accessToken, expecting: .ok)
            #expect(Set(try await found("q=walk").ids) == [walk, second])

            // When the person signs out everywhere, no kept search is answered to the old token
            try await api.send(.post, "/v1/auth/logout-all", token: session.accessToken, expecting: .noContent)
            #expect(try await api.send(.get, "/v1/search?q=walk", token: session.accessToken).status == .unauthorized)
        }
    }

    @Test func pagesAreBoundedAndANewerPageIsNotReplacedByAnOlderOne() {
        // Given a cache of 10 KB that keeps pages of up to 4 KB
        let cache = PageCache<EntryPageKey>(maxBytes: 10_000, maxPageBytes: 4_000, maxAccountBytes: 10_000)
        let user = UUID()
        func key(_ cursor: Int) -> EntryPageKey { .init(userID: user, cursor: cursor, limit: 50) }
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

        // When a kept page is replaced by a larger one that fills the cache, it counts exactly what it keeps (each
        // round new keys, so that the cache meets them in another order)
        for _ in 0..<20 {
            let full = PageCache<EntryPageKey>(maxBytes: 10_000, maxPageBytes: 4_000, maxAccountBytes: 10_000)
            let keys = (0..<7).map { EntryPageKey(userID: UUID(), cursor: $0, limit: 50) }
            for key in keys { full.keep(page(1_000, 1), for: key, changeSeq: 1) }
            full.keep(page(3_000, 2), for: keys[0], changeSeq: 2)
            let kept = keys.flatMap { key in [1, 2].compactMap { full.page(key, changeSeq: $0) } }
            #expect(full.keptBytes == kept.map { PageCache<EntryPageKey>.size(of: $0, under: keys[0]) }.reduce(0, +))
            #expect(full.page(keys[0], changeSeq: 2) == page(3_000, 2) && full.keptBytes <= 10_000)
        }

        // When the account is closed, its pages are forgotten, and another account's stay
        let other = EntryPageKey(userID: UUID(), cursor: 0, limit: 50)
        cache.keep(page(100, 9), for: other, changeSeq: 1)
        cache.forget(userID: user)
        #expect(cache.page(key(39), changeSeq: 5) == nil && cache.page(other, changeSeq: 1) == page(100, 9))
        #expect(cache.keptBytes == PageCache<EntryPageKey>.size(of: page(100, 9), under: other))

        // When small search answers are kept under long query strings, the strings count against the bound too
        let searches = PageCache<SearchPageKey>(maxBytes: 10_000, maxPageBytes: 4_000, maxAccountBytes: 10_000)
        func search(_ index: Int) -> SearchPageKey {
            SearchPageKey(userID: user, query: "q=walk&ignored=" + String(repeating: "x", count: 2_000) + "\(index)", dates: nil)
        }
        for index in 0..<40 {
            searches.keep(page(10, 1), for: search(index), changeSeq: 5)
            #expect(searches.keptBytes <= 10_000)
        }
        #expect((0..<40).filter { searches.page(search($0), changeSeq: 5) != nil }.count <= 4)

        // When one account keeps asking new things, it makes room from its own share, and another's page stays
        let shared = PageCache<EntryPageKey>(maxBytes: 10_000, maxPageBytes: 4_000, maxAccountBytes: 3_000)
        let quiet = EntryPageKey(userID: UUID(), cursor: 0, limit: 50)
        shared.keep(page(1_000, 1), for: quiet, changeSeq: 1)
        for cursor in 0..<40 {
            shared.keep(page(1_000, 2), for: key(cursor), changeSeq: 1)
            #expect(shared.keptBytes <= 3_000 + PageCache<EntryPageKey>.size(of: page(1_000, 1), under: quiet))
        }
        #expect(shared.page(quiet, changeSeq: 1) == page(1_000, 1) && shared.page(key(39), changeSeq: 1) != nil)
    }
}
