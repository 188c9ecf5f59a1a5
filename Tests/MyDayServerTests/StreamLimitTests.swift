import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// Live-update streams are bounded: a few per account, the oldest ended first, and a ceiling for the whole server.
@Suite struct StreamLimitTests {
    @Test func anAccountKeepsAFewStreamsTheOldestEndedFirst() async throws {
        let server = try await TestServer.make(.sqlite) { $0.changeFeedLimits = .init(perAccount: 2, total: 100) }
        try await server.run { api in
            // Given two streams of one account, each told where the diary stands
            let session = try await api.register()
            var oldest = try await EventStream.open(port: api.port, token: session.accessToken).changes.makeAsyncIterator()
            var middle = try await EventStream.open(port: api.port, token: session.accessToken).changes.makeAsyncIterator()
            #expect(try await oldest.next() != nil)
            #expect(try await middle.next() != nil)
            // When a third opens
            let newest = try await EventStream.open(port: api.port, token: session.accessToken)
            #expect(newest.status == 200)
            var newestEvents = newest.changes.makeAsyncIterator()
            #expect(try await newestEvents.next() != nil)
            // Then the oldest has ended, and the other two still hear changes
            #expect(try await oldest.next() == nil)
            try await api.send(
                .post, "/v1/entries", token: session.accessToken,
                json: ["id": UUID().uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text", "text": "A."],
                expecting: .created)
            #expect(try await middle.next() != nil)
            #expect(try await newestEvents.next() != nil)
        }
    }

    @Test func theServerHoldsNoMoreStreamsThanItAllows() async throws {
        let server = try await TestServer.make(.sqlite) { $0.changeFeedLimits = .init(perAccount: 5, total: 2) }
        try await server.run { api in
            // Given two people whose streams fill the server
            var held: [AsyncThrowingStream<String, any Error>.AsyncIterator] = []
            for _ in 0..<2 {
                let session = try await api.register()
                var events = try await EventStream.open(port: api.port, token: session.accessToken).changes.makeAsyncIterator()
                #expect(try await events.next() != nil)
                held.append(events)
            }
            // When a third person opens one, then the server says to poll instead
            let third = try await api.register()
            let refused = try await api.send(.get, "/v1/events", token: third.accessToken)
            #expect(refused.status == .serviceUnavailable && refused.errorCode == "streams_full", "\(refused.text)")
            #expect(refused.headers[.retryAfter] != nil)
            _ = held
        }
    }
}
