import AsyncHTTPClient
import Foundation
import MyDayTestSupport
import NIOCore
import Testing

@testable import MyDayServer

/// `GET /v1/events` read as a client reads it: the `data` of each `change` event, in order; it ends with the stream.
struct EventStream: Sendable {
    let status: Int
    let changes: AsyncThrowingStream<String, any Error>

    static func open(port: Int, token: String) async throws -> EventStream {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .minutes(10))
        let body = response.body
        let changes = AsyncThrowingStream<String, any Error> { continuation in
            let reading = Task {
                do {
                    var text = ""
                    for try await chunk in body {
                        text += String(buffer: chunk)
                        while let end = text.range(of: "\n\n") {
                            let event = text[..<end.lowerBound].split(separator: "\n")
                            text = String(text[end.upperBound...])
                            guard event.contains("event: change") else { continue }
                            for line in event where line.hasPrefix("data: ") { continuation.yield(String(line.dropFirst(6))) }
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
        return EventStream(status: Int(response.status.code), changes: changes)
    }
}

@Suite struct ChangeFeedTests {
    /// The account's change sequence now, as delta sync's cursor reports it.
    private func sequence(_ api: APIClient, _ session: APIClient.Session) async throws -> Int {
        let page = try await api.send(.get, "/v1/entries?limit=500", token: session.accessToken).json
        return Int(page["next_cursor"] as? String ?? "0") ?? 0
    }

    private func note(_ api: APIClient, _ session: APIClient.Session) async throws {
        try await api.send(
            .post, "/v1/entries", token: session.accessToken,
            json: [
                "id": UUID().uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text", "text": "A note.",
            ],
            expecting: .created)
    }

    @Test(arguments: TestDatabase.available)
    func eachChangeIsAnnouncedWithItsNumberOnlyToItsAccountAndTheStreamEndsWithTheSession(_ database: TestDatabase)
        async throws
    {
        let server = try await TestServer.make(database) { $0.workers = 0 }
        let leftOpen = try await server.run { api in
            let alice = try await api.register()
            let bob = try await api.register()
            // Given Alice's feed, which says at once where her diary stands, and nothing else
            let feed = try await EventStream.open(port: api.port, token: alice.accessToken)
            #expect(feed.status == 200)
            var events = feed.changes.makeAsyncIterator()
            let first = try await events.next()
            let before = try await sequence(api, alice)
            #expect(first == #"{"change_seq":\#(before)}"#)

            // When Bob writes an entry, and then Alice does
            try await note(api, bob)
            try await note(api, alice)

            // Then her next event carries her new number (Bob's change made none for her)
            let after = try await sequence(api, alice)
            let next = try await events.next()
            #expect(after > before && next == #"{"change_seq":\#(after)}"#)

            // When she signs out everywhere, then her stream ends
            try await api.send(.post, "/v1/auth/logout-all", token: alice.accessToken, expecting: .noContent)
            let last = try await events.next()
            #expect(last == nil)

            // Bob's stream is still open when the server stops
            let bobs = try await EventStream.open(port: api.port, token: bob.accessToken)
            let opened = Gate()
            let reading = Task {
                var count = 0
                for try await _ in bobs.changes {
                    count += 1
                    opened.open()
                }
                return count
            }
            await opened.wait()
            return reading
        }
        // Then stopping the server ended it too, instead of waiting for it
        #expect(try await leftOpen.value == 1)
    }

    @Test func aStreamWithoutAGenuineTokenIsRefused() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 0 }
        try await server.run { api in
            let refused = try await api.send(.get, "/v1/events", token: "not-a-token")
            #expect(refused.status == .unauthorized)
            #expect((refused.json["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        }
    }

    @Test func aStreamSendsKeepAlivesAndEndsWhenItsTokenExpiresOrItsSessionsEnd() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 0 }
        try await server.run { api in
            let session = try await api.register()
            let userID = try #require(UUID(uuidString: session.userID))
            try await server.withDatabase { driver in
                let feed = ChangeFeed(users: UserStore(driver: driver), keepAliveInterval: 15)
                let now = Date()
                // Given a stream whose token expires in a minute: the current number at once
                var stream = try await feed.watch(userID: userID, tokenVersion: 0, expiresAt: now + 60, now: now)
                    .makeAsyncIterator()
                #expect(await stream.next() == .changed(0))
                // When nothing changes for 15 s, then a keep-alive; when the token has expired, then the end
                try await feed.poll(now: now + 15)
                #expect(await stream.next() == .keepAlive)
                try await feed.poll(now: now + 60)
                #expect(await stream.next() == nil)
                #expect(await feed.openStreams == 0)

                // Given a stream opened with a token of an older version (its sessions ended since), then it ends at once
                var stale = try await feed.watch(userID: userID, tokenVersion: -1, expiresAt: now + 60, now: now)
                    .makeAsyncIterator()
                #expect(await stale.next() == nil)
            }
        }
    }
}
