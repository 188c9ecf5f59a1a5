import Foundation

/// Keeps a device's diary current while it is open: follows the server's change feed and syncs each time the
/// account's change sequence moves, so a transcript finished on the server or an edit made on another device shows
/// without a refresh. While the feed cannot be reached it syncs once per failed attempt instead (polling) and tries
/// the feed again after a backoff. Runs until its task is cancelled or the session ends.
public struct ChangeFollower: Sendable {
    private let client: any MyDayClient
    private let sync: @Sendable () async throws -> Void
    private let sleep: @Sendable (TimeInterval) async throws -> Void
    private let backoff: Backoff
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - sync: What a change sets off, usually `SyncEngine.sync`; its failures are left to the next change.
    ///   - sleep: Waits the given seconds (tests pass a fake that returns at once and records the waits).
    ///   - backoff: The waits between attempts to reach the feed; by default 2 s doubling to 30 s, the polling interval.
    public init(
        client: any MyDayClient, sync: @escaping @Sendable () async throws -> Void,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(for: .seconds($0)) },
        backoff: Backoff = Backoff(base: 2, factor: 2, maximum: 30, jitter: 0.2),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.client = client
        self.sync = sync
        self.sleep = sleep
        self.backoff = backoff
        self.random = random
    }

    /// Follows the feed until the task is cancelled or the server says the session is over.
    public func run() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                var last: Int?
                for try await sequence in try await client.changeFeed() where sequence != last {
                    failures = 0
                    last = sequence
                    try? await sync()
                }
                // The stream ended (its token expired, or the server is restarting): connect again, after a breath.
                try await sleep(1)
            } catch {
                if Task.isCancelled || Self.endsTheSession(error) { return }
                failures += 1
                try? await sync()
                do {
                    try await sleep(backoff.delay(afterAttempts: failures, random: random()))
                } catch {
                    return
                }
            }
        }
    }

    private static func endsTheSession(_ error: any Error) -> Bool {
        switch error as? MyDayClientError {
        case .notSignedIn, .sessionEnded: true
        case .server(let status, _, _, _): status == 401
        default: false
        }
    }
}
