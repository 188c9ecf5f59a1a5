import Foundation
import HTTPTypes
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDayServer

/// A clock the test moves by hand (µs since 1970), so that no limit refills while a loaded machine is slow.
final class ManualClock: Sendable {
    private let microseconds: Mutex<Int>
    init(at start: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        microseconds = Mutex(Int(start.timeIntervalSince1970) * 1_000_000)
    }
    var now: @Sendable () -> Int { { self.microseconds.withLock { $0 } } }
    /// The same time as a date, for the server's own clock.
    var date: @Sendable () -> Date { { Date(timeIntervalSince1970: Double(self.now()) / 1_000_000) } }
    func advance(seconds: Int) { microseconds.withLock { $0 += seconds * 1_000_000 } }
}

@Suite(.serialized) struct RateLimitTests {
    /// Generous limits except those `adjust` sets, counted on `clock`.
    private static func limited(clock: ManualClock = ManualClock(), _ adjust: @escaping @Sendable (inout RateLimitPolicy) -> Void)
        -> @Sendable (inout ServerConfiguration) -> Void
    {
        { configuration in
            configuration.rateLimits = .generous
            configuration.rateLimitClock = clock.now
            adjust(&configuration.rateLimits)
        }
    }

    @Test(arguments: TestDatabase.available)
    func bruteForceFromOneAddressIsStoppedAndTheOwnerStillSignsInFromAnother(_ database: TestDatabase) async throws {
        let clock = ManualClock()
        let server = try await TestServer.make(
            database,
            adjust: Self.limited(clock: clock) {
                $0.authPerAddress = RateLimit(perMinute: 10)
                $0.loginPerAccount = RateLimit(perMinute: 30)
            })
        try await server.run { api in
            // Given the owner's account (made straight in the database, so it spends none of the address's budget)
            let hash = try await PasswordHasher(cost: server.configuration.bcryptCost).hash("the owner's passphrase")
            _ = try await server.withDatabase {
                try await UserStore(driver: $0).registerEmailUser(email: "owner@example.com", passwordHash: hash)
            }

            // When one address tries 100 wrong passwords
            var statuses: [Int] = []
            var retryAfter: [Int] = []
            for attempt in 1...100 {
                let reply = try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": "owner@example.com", "password": "guess number \(attempt)"])
                statuses.append(reply.status.code)
                if let seconds = reply.headers[.retryAfter].flatMap(Int.init) { retryAfter.append(seconds) }
            }

            // Then the first ten are answered and the other ninety refused with 429 and a Retry-After of six seconds
            #expect(statuses.prefix(10).allSatisfy { $0 == 401 }, "\(statuses)")
            #expect(statuses.dropFirst(10).allSatisfy { $0 == 429 }, "\(statuses)")
            #expect(retryAfter == Array(repeating: 6, count: 90))

            // And six seconds later the address has one more guess, and only one
            clock.advance(seconds: 6)
            let guess = { (password: String) in
                try await api.send(.post, "/v1/auth/email/login", json: ["email": "owner@example.com", "password": password])
            }
            #expect(try await guess("one more guess").status == .unauthorized)
            let refused = try await guess("and another")
            #expect(refused.status == .tooManyRequests && refused.errorCode == "rate_limited")
            #expect(refused.errorMessage?.contains("Too many") == true, "\(refused.text)")

            // And the owner, from another address, signs in at once
            let body = Data(#"{"email":"owner@example.com","password":"the owner's passphrase"}"#.utf8)
            let port = api.port
            let owner = try await onDedicatedThread {
                try RawHTTP.exchange(
                    port: port, from: "127.0.0.2",
                    head: "POST /v1/auth/email/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n",
                    body: body)
            }
            #expect(owner.status == 200, "\(owner.body)")
            #expect(owner.body.contains("access_token"))
        }
    }

    @Test(arguments: TestDatabase.available)
    func aBurstOfParallelGuessesFromManyAddressesGetsNoMoreThanTheLimit(_ database: TestDatabase) async throws {
        let clock = ManualClock()
        let server = try await TestServer.make(
            database, adjust: Self.limited(clock: clock) { $0.loginPerAccount = RateLimit(perMinute: 3) })
        try await server.run { api in
            let hash = try await PasswordHasher(cost: server.configuration.bcryptCost).hash("the owner's passphrase")
            _ = try await server.withDatabase {
                try await UserStore(driver: $0).registerEmailUser(email: "owner@example.com", passwordHash: hash)
            }
            // When twenty addresses each send one wrong password at the same moment: all twenty under way in the
            // server before any is answered
            let answers = try await HeldRequests.exchange(
                port: api.port,
                (1...20).map { address in
                    let body = Data(#"{"email":"owner@example.com","password":"guess \#(address)"}"#.utf8)
                    return HeldRequests.Request.withBody(
                        from: "127.0.1.\(address)",
                        head: "POST /v1/auth/email/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n",
                        body: body)
                })
            let statuses = answers.map(\.status)
            // Then three guesses were checked and every other one refused unchecked
            #expect(statuses.filter { $0 == 401 }.count == 3, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 17, "\(statuses.sorted())")
        }
    }

    @Test func aLimitAboveOneRequestAMillisecondKeepsItsBurstAndItsRate() {
        // Given a limit of 120,000 requests a minute, more than a minute has milliseconds
        let limit = RateLimit(perMinute: 120_000)
        // When its whole burst comes in the same microsecond, then every request is allowed, and the next is not
        var tat: Int?
        for _ in 0..<120_000 {
            let (decision, next) = limit.decide(tat: tat, now: 5_000_000)
            #expect(decision == .allowed)
            tat = next ?? tat
        }
        #expect(limit.decide(tat: tat, now: 5_000_000).decision != .allowed)
        // And over the next second, requests every 250 µs are allowed every other time: two a millisecond, the limit
        var allowed = 0
        for step in 1...4000 {
            let (decision, next) = limit.decide(tat: tat, now: 5_000_000 + step * 250)
            if decision == .allowed { allowed += 1 }
            tat = next ?? tat
        }
        #expect(allowed == 2000)
        // While a limit of two a minute refuses the third at once
        let strict = RateLimit(perMinute: 2)
        let first = strict.decide(tat: nil, now: 0)
        let second = strict.decide(tat: first.newTAT, now: 0)
        #expect(second.decision == .allowed && strict.decide(tat: second.newTAT, now: 0).decision != .allowed)
    }

    @Test func entryCreationIsLimitedPerUser() async throws {
        let server = try await TestServer.make(.sqlite, adjust: Self.limited { $0.entriesPerUser = RateLimit(perMinute: 3) })
        try await server.run { api in
            let busy = try await api.register()
            let other = try await api.register()
            func create(_ session: APIClient.Session) async throws -> APIClient.Reply {
                try await api.send(
                    .post, "/v1/entries", token: session.accessToken,
                    json: [
                        "id": UUID().uuidString, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text",
                        "text": "hello",
                    ])
            }
            for _ in 1...3 { #expect(try await create(busy).status == .created) }
            let refused = try await create(busy)
            #expect(refused.status == .tooManyRequests && refused.errorCode == "rate_limited")
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try await create(other).status == .created)
        }
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "needs the PostgreSQL the test command starts"))
    func twoAPINodesOnOnePostgresShareTheLimit() async throws {
        // Given two API nodes on the same PostgreSQL database
        let first = try await TestServer.make(.postgres, adjust: Self.limited { $0.authPerAddress = RateLimit(perMinute: 10) })
        let second = TestServer(configuration: first.configuration)
        try await first.run { one in
            try await second.run { two in
                // When one address alternates between them
                var answered = 0
                for attempt in 0..<20 {
                    let api = attempt.isMultiple(of: 2) ? one : two
                    let reply = try await api.send(
                        .post, "/v1/auth/email/login", json: ["email": "nobody@example.com", "password": "wrong password"])
                    if reply.status == .unauthorized { answered += 1 }
                }
                // Then together they answer what one node would, not twice that
                #expect(answered == 10)
            }
        }
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "needs the PostgreSQL the test command starts"))
    func schedulesAreWrittenWithoutWaitingForTheLogAndEntriesAreNot() async throws {
        // Given a server on PostgreSQL
        let server = try await TestServer.make(.postgres)
        try await server.withDatabase { driver in
            // When its rate-limit bookkeeping and its transactions ask how they commit
            let bookkeeping = try await driver.writeBookkeeping { db in
                try await db.raw("SHOW synchronous_commit").first()?.decode(column: "synchronous_commit", as: String.self)
            }
            let transaction = try await driver.write { db in
                try await db.raw("SHOW synchronous_commit").first()?.decode(column: "synchronous_commit", as: String.self)
            }
            // Then only the bookkeeping goes on before its log reaches the disk
            #expect(bookkeeping == "off")
            #expect(transaction == "on")
        }
    }

    @Test func refreshesHaveALimitOfTheirOwnAndNeverSpendTheSignIns() async throws {
        // Given a server allowing 3 sign-ins and 4 refreshes a minute from an address
        let server = try await TestServer.make(
            .sqlite,
            adjust: Self.limited {
                $0.authPerAddress = RateLimit(perMinute: 3)
                $0.refreshPerAddress = RateLimit(perMinute: 4)
            })
        try await server.run { api in
            var session = try await api.register()
            // When the device refreshes its session four times
            for _ in 1...4 {
                let refreshed = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": session.refreshToken])
                #expect(refreshed.status == .ok, "\(refreshed.text)")
                session = APIClient.session(refreshed)
            }
            // Then a fifth is refused
            let refused = try await api.send(.post, "/v1/auth/refresh", json: ["refresh_token": session.refreshToken])
            #expect(refused.status == .tooManyRequests && refused.errorCode == "rate_limited")
            // And the address's sign-ins are all still there: two after the registration's one, then no more
            let signIns = [
                try await api.signInStatus("nobody@example.com"), try await api.signInStatus("nobody@example.com"),
                try await api.signInStatus("nobody@example.com"),
            ]
            #expect(signIns == [.unauthorized, .unauthorized, .tooManyRequests])
        }
    }

    @Test func accountLimitsCountFailedSignInsOnly() async throws {
        let server = try await TestServer.make(.sqlite, adjust: Self.limited { $0.loginPerAccount = RateLimit(perMinute: 3) })
        try await server.run { api in
            _ = try await api.register("counted@example.com", password: "the right passphrase")
            func login(_ password: String) async throws -> Int {
                try await api.send(.post, "/v1/auth/email/login", json: ["email": "counted@example.com", "password": password])
                    .status.code
            }
            // Signing in successfully, again and again, spends nothing
            for _ in 1...5 { #expect(try await login("the right passphrase") == 200) }
            // Three failures spend the account's budget; then the account waits
            for attempt in 1...3 { #expect(try await login("wrong \(attempt)") == 401) }
            #expect(try await login("wrong 4") == 429)
        }
    }

    @Test func addressesGroupIPv6HostsByTheirBlock() {
        #expect(RateLimitGuard.addressKey("203.0.113.9") == "203.0.113.9")
        #expect(RateLimitGuard.addressKey("2001:db8:1:2:aaaa::1") == RateLimitGuard.addressKey("2001:db8:1:2:ffff:1:2:3"))
        #expect(RateLimitGuard.addressKey("2001:db8:1:2::1") != RateLimitGuard.addressKey("2001:db8:1:3::1"))
        #expect(RateLimitGuard.addressKey("::ffff:198.51.100.7") == "198.51.100.7")
    }

    @Test func forwardedForIsBelievedOnlyAsFarAsTheTrustedProxies() {
        let address = ClientAddressMiddleware<MyDayRequestContext>.address
        #expect(address("10.0.0.1", ["203.0.113.9"], 0) == "10.0.0.1")
        #expect(address("10.0.0.1", ["198.51.100.7, 203.0.113.9"], 1) == "203.0.113.9")
        #expect(address("10.0.0.1", ["198.51.100.7, 203.0.113.9"], 2) == "198.51.100.7")
        #expect(address("10.0.0.1", [], 1) == "10.0.0.1")
        #expect(address(nil, [], 0) == "unknown")
    }

    @Test func theScheduleRefusesBeyondTheBurstAndSaysWhenToComeBack() {
        let limit = RateLimit(perMinute: 6)
        var tat: Int? = nil
        for _ in 1...6 {
            let (decision, next) = limit.decide(tat: tat, now: 0)
            #expect(decision == .allowed)
            tat = next
        }
        #expect(limit.decide(tat: tat, now: 0).decision == .limited(retryAfterSeconds: 10))
        #expect(limit.decide(tat: tat, now: 9_999_999).decision == .limited(retryAfterSeconds: 1))
        #expect(limit.decide(tat: tat, now: 10_000_000).decision == .allowed)
    }
}

extension APIClient {
    /// What a password sign-in as `email` with a wrong password answers.
    fileprivate func signInStatus(_ email: String) async throws -> HTTPResponse.Status {
        try await send(.post, "/v1/auth/email/login", json: ["email": email, "password": "not the password"]).status
    }
}
