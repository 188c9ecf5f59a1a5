import Foundation
import MyDayKit
import MyDayTestSupport
import Testing

@Suite struct SessionManagerTests {
    let account = Account(id: UUID(), email: "a@example.com", name: nil, hasPassword: true, createdAt: Given.now)

    private func credentials(_ token: String, expiresIn: TimeInterval) -> Credentials {
        Credentials(
            accessToken: token, refreshToken: "refresh-\(token)", accessTokenExpiresAt: Given.now.addingTimeInterval(expiresIn),
            account: account)
    }

    @Test func twentyCallersWithAnExpiringTokenShareOneRefresh() async throws {
        // Given a token that expires in 30 s (inside the 60 s margin), a clock that counts the callers who looked at
        // it, and a refresh held until the test lets it answer
        let refreshes = CallCounter()
        let lookedAtTheClock = CallCounter()
        let answer = Gate()
        let store = InMemoryCredentialStore(credentials("old", expiresIn: 30))
        let session = SessionManager(
            store: store,
            now: {
                lookedAtTheClock.increment()
                return Given.now
            },
            refresh: { refreshToken in
                #expect(refreshToken == "refresh-old")
                refreshes.increment()
                await answer.wait()
                return credentials("new", expiresIn: 900)
            })
        // When one caller starts the refresh and 19 more ask for a token while it is held
        let first = Task { try await session.accessToken() }
        try await pollUntil("the refresh is held", deadline: .seconds(60)) { answer.waiterCount == 1 }
        let others = Task {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<19 { group.addTask { try await session.accessToken() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // (a caller reads the clock, then joins or starts a refresh without suspending in between: once all 20 have
        // read it, all 20 are in before the held refresh can answer)
        try await pollUntil("all 20 callers want a new token while the refresh is held", deadline: .seconds(60)) {
            lookedAtTheClock.count == 20
        }
        answer.open()
        let tokens = [try await first.value] + (try await others.value)
        // Then exactly one refresh ran, everyone got the new token, and it was stored
        #expect(refreshes.count == 1)
        #expect(tokens.count == 20 && Set(tokens) == ["new"])
        #expect(try store.load()?.accessToken == "new")
    }

    @Test func aRefusedRefreshEndsTheSessionCleanly() async throws {
        // Given a server that refuses the refresh token (its family was revoked)
        let store = InMemoryCredentialStore(credentials("old", expiresIn: 0))
        let session = SessionManager(
            store: store, now: { Given.now },
            refresh: { _ in
                throw MyDayClientError.server(status: 401, code: "unauthorized", message: "Sign in again.", retryAfter: nil)
            })
        // When a token is needed, then the session ends and nothing is stored any more
        await #expect(throws: MyDayClientError.sessionEnded) { try await session.accessToken() }
        #expect(try store.load() == nil)
        await #expect(throws: MyDayClientError.notSignedIn) { try await session.accessToken() }
    }

    @Test func aSignOutDuringARefreshIsNotUndoneByItsAnswer() async throws {
        // Given a refresh that answers only after the person signed out
        let store = InMemoryCredentialStore(credentials("old", expiresIn: 0))
        let gate = AsyncStream<Void>.makeStream()
        let session = SessionManager(
            store: store, now: { Given.now },
            refresh: { _ in
                for await _ in gate.stream { break }
                return credentials("revived", expiresIn: 900)
            })
        let refreshing = Task { try await session.accessToken() }
        try await pollUntil("the refresh is under way", deadline: .seconds(10)) { await session.isRefreshing }
        try await session.end()
        gate.continuation.yield()
        // Then the caller is told the session ended, and it stays ended
        await #expect(throws: MyDayClientError.sessionEnded) { try await refreshing.value }
        #expect(try store.load() == nil)
        #expect(try await session.credentials() == nil)
    }

    @Test func aFailedNetworkKeepsTheSession() async throws {
        let store = InMemoryCredentialStore(credentials("old", expiresIn: 0))
        let session = SessionManager(store: store, now: { Given.now }, refresh: { _ in throw URLError(.notConnectedToInternet) })
        await #expect(throws: URLError.self) { try await session.accessToken() }
        #expect(try store.load()?.accessToken == "old")
    }

    @Test func aRejectedTokenIsReplacedByOneAnotherCallerAlreadyGot() async throws {
        // Given a session that was refreshed after a request went out with the old token
        let store = InMemoryCredentialStore(credentials("newer", expiresIn: 900))
        let session = SessionManager(
            store: store, now: { Given.now },
            refresh: { _ in
                Issue.record("no refresh expected")
                throw UnexpectedCall(name: "refresh")
            })
        // When the old token is rejected, then the newer one is answered without a refresh
        #expect(try await session.accessToken(afterRejecting: "old") == "newer")
    }
}
