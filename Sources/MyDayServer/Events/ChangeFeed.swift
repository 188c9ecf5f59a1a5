import Foundation

/// Tells each open event stream (`GET /v1/events`) when its account's change sequence moved, and ends the streams
/// whose session ended. `poll` reads every watched account in one query, so changes made by any process or node are
/// seen; `ChangeFeedService` calls it about once a second. Nothing private passes through: only sequence numbers.
actor ChangeFeed {
    /// What a stream is told.
    enum Signal: Sendable, Equatable {
        /// The account's change sequence is now this number.
        case changed(Int)
        /// Nothing changed for a while: a comment keeps proxies from closing the connection.
        case keepAlive
    }

    /// How many streams the feed holds: per account (opening one more ends the account's oldest) and in all.
    struct Limits: Sendable, Equatable {
        var perAccount = 5
        var total = 2_000
    }

    /// The feed holds `Limits.total` streams already.
    struct Full: Error {}

    private struct Watcher {
        let userID: UUID
        /// Streams are ended oldest first: the order they were opened in.
        let order: Int
        /// The account's token version when the stream opened: another one means its sessions ended.
        let tokenVersion: Int
        /// When the access token that opened the stream expires.
        let expiresAt: Date
        let continuation: AsyncStream<Signal>.Continuation
        var lastSent: Int?
        var lastSignalAt: Date
    }

    private let users: UserStore
    private let keepAliveInterval: TimeInterval
    private let limits: Limits
    private var watchers: [UUID: Watcher] = [:]
    private var opened = 0

    init(users: UserStore, keepAliveInterval: TimeInterval = 15, limits: Limits = Limits()) {
        self.users = users
        self.keepAliveInterval = keepAliveInterval
        self.limits = limits
    }

    /// How many streams are open now.
    var openStreams: Int { watchers.count }

    /// A stream of signals for `userID`'s session: the current sequence at once, then each change, until the token
    /// expires, the session ends, the account opens more streams than it may keep, or the stream is dropped. Throws
    /// `Full` when the feed holds as many streams as it allows.
    func watch(userID: UUID, tokenVersion: Int, expiresAt: Date, now: Date = Date()) async throws -> AsyncStream<Signal> {
        let own = watchers.filter { $0.value.userID == userID }.sorted { $0.value.order < $1.value.order }
        for (id, watcher) in own.prefix(max(0, own.count - limits.perAccount + 1)) {
            watcher.continuation.finish()
            watchers[id] = nil
        }
        guard watchers.count < limits.total else { throw Full() }
        let (stream, continuation) = AsyncStream<Signal>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        continuation.onTermination = { _ in Task { await self.forget(id) } }
        opened += 1
        watchers[id] = Watcher(
            userID: userID, order: opened, tokenVersion: tokenVersion, expiresAt: expiresAt, continuation: continuation,
            lastSent: nil, lastSignalAt: now)
        try await poll(now: now)
        return stream
    }

    /// One round: reads the watched accounts' sequences and sends each stream what it has not seen; ends the streams of
    /// expired tokens, ended sessions and closed accounts.
    func poll(now: Date = Date()) async throws {
        guard !watchers.isEmpty else { return }
        let asked = Set(watchers.values.map(\.userID))
        let states = try await users.changeStates(ids: asked)
        // Streams opened while the query ran are left for the next round.
        for (id, watcher) in watchers where asked.contains(watcher.userID) {
            guard now < watcher.expiresAt, let state = states[watcher.userID], state.tokenVersion == watcher.tokenVersion
            else {
                watcher.continuation.finish()
                watchers[id] = nil
                continue
            }
            if state.changeSeq != watcher.lastSent {
                watchers[id]?.lastSent = state.changeSeq
                watchers[id]?.lastSignalAt = now
                watcher.continuation.yield(.changed(state.changeSeq))
            } else if now.timeIntervalSince(watcher.lastSignalAt) >= keepAliveInterval {
                watchers[id]?.lastSignalAt = now
                watcher.continuation.yield(.keepAlive)
            }
        }
    }

    /// Ends every stream (the server is stopping).
    func finishAll() {
        for watcher in watchers.values { watcher.continuation.finish() }
        watchers.removeAll()
    }

    private func forget(_ id: UUID) {
        watchers[id] = nil
    }
}
