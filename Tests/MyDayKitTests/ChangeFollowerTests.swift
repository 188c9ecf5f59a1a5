import Foundation
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDayKit

@Suite("ChangeFollower: the change feed sets off syncs", .timeLimit(.minutes(1)))
struct ChangeFollowerTests {
    /// What the follower did: its syncs and its waits, in order.
    final class Log: Sendable {
        private let events = Mutex<[String]>([])
        func add(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    /// A feed that answers each connection with the next of `connections`: change sequences to send, or an error.
    static func feed(_ connections: [Result<[Int], any Error>])
        -> @Sendable () async throws -> AsyncThrowingStream<
            Int, any Error
        >
    {
        let next = Mutex(0)
        return {
            let index = next.withLock { value in
                defer { value += 1 }
                return value
            }
            guard index < connections.count else {
                Issue.record("connected more often than expected")
                throw MyDayClientError.sessionEnded
            }
            let sequences = try connections[index].get()
            return AsyncThrowingStream { continuation in
                for sequence in sequences { continuation.yield(sequence) }
                continuation.finish()
            }
        }
    }

    static func follower(_ client: FakeMyDayClient, _ log: Log) -> ChangeFollower {
        ChangeFollower(
            client: client, sync: { log.add("sync") }, sleep: { log.add("wait \($0)") }, random: { 0 })
    }

    @Test func eachNewSequenceSyncsOnceAndAnEndedStreamIsFollowedAgain() async {
        // Given a feed that sends 5, 5 again and 6, then ends (its token expired), and then the session ends
        var client = FakeMyDayClient()
        client.onChangeFeed = Self.feed([.success([5, 5, 6]), .failure(MyDayClientError.sessionEnded)])
        let log = Log()

        // When the follower runs
        await Self.follower(client, log).run()

        // Then it synced once per new sequence, connected again after a breath, and stopped with the session
        #expect(log.all == ["sync", "sync", "wait 1.0"])
    }

    @Test func anUnreachableFeedIsPolledWithBackoffUntilItAnswersAgain() async {
        // Given a feed that cannot be reached twice, then answers with 9
        var client = FakeMyDayClient()
        client.onChangeFeed = Self.feed([
            .failure(URLError(.cannotConnectToHost)), .failure(URLError(.cannotConnectToHost)), .success([9]),
            .failure(MyDayClientError.server(status: 401, code: "unauthorized", message: "Sign in.", retryAfter: nil)),
        ])
        let log = Log()

        // When the follower runs
        await Self.follower(client, log).run()

        // Then each failure synced anyway (the polling fallback) and waited longer, then the feed was followed again,
        // until a 401 ended it without a sync
        #expect(log.all == ["sync", "wait 2.0", "sync", "wait 4.0", "sync", "wait 1.0"])
    }

    @Test func cancellingStopsFollowing() async throws {
        // Given a feed that never sends anything, which notes each connection and when its stream is let go
        let connections = Mutex(0)
        let ended = Gate()
        var client = FakeMyDayClient()
        client.onChangeFeed = {
            connections.withLock { $0 += 1 }
            return AsyncThrowingStream { continuation in continuation.onTermination = { _ in ended.open() } }
        }
        let log = Log()
        let follower = ChangeFollower(
            client: client, sync: { log.add("sync") },
            sleep: { _ in
                try Task.checkCancellation()
                log.add("wait")
            })
        let following = Task { await follower.run() }
        try await pollUntil("the follower is connected", deadline: .seconds(60)) { connections.withLock { $0 } == 1 }

        // When its task is cancelled while it follows the feed
        following.cancel()
        await following.value

        // Then it let the stream go and returned, without a sync, a wait or another connection
        await ended.wait()
        #expect(log.all.isEmpty)
        #expect(connections.withLock { $0 } == 1)
    }
}
