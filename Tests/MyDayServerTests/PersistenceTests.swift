import Foundation
import Logging
import MyDayModels
import MyDayTestSupport
import SQLKit
import Testing

@testable import MyDayServer

/// The stores against each SQL engine directly: one suite, the same queries, both engines.
@Suite(.serialized) struct PersistenceTests {
    private func withStores<T>(
        _ database: TestDatabase, _ body: (any DatabaseDriver, UserStore, EntryStore, SessionStore) async throws -> T
    ) async throws -> T {
        let configuration = try await database.freshConfiguration()
        return try await DatabaseDriverFactory.withDriver(configuration: configuration, logger: Logger(label: "test")) {
            driver in
            try await Migrator.migrate(driver)
            return try await body(driver, UserStore(driver: driver), EntryStore(driver: driver), SessionStore(driver: driver))
        }
    }

    private func textEntry(_ text: String, id: UUID = UUID()) -> NewEntry {
        NewEntry(
            id: id, createdAt: Date(timeIntervalSince1970: 1_780_000_000), timeZone: TimeZone(identifier: "Europe/Paris")!,
            durationSeconds: 0, kind: .text, text: text)
    }

    @Test(arguments: TestDatabase.available)
    func aWriteCancelledMidTransactionLeavesNothingAndLaterWritesWork(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, users, _, _) async throws in
            // Given a write that has inserted a row and then waits inside its transaction
            let inside = Gate()
            let writing = Task {
                try await driver.write { db in
                    try await db.raw(
                        "INSERT INTO users (id, email, created_at) VALUES (\(bind: UUID().lowercased), 'cancelled@example.com', 0)"
                    ).run()
                    inside.open()
                    try await Task.sleep(for: .seconds(600))
                }
            }
            await inside.wait()

            // When its task is cancelled there
            writing.cancel()
            await #expect(throws: CancellationError.self) { try await writing.value }

            // Then its row is not there, and the next write commits
            let registered = try await users.registerEmailUser(
                email: "after@example.com", passwordHash: "x", mailsLinks: false)
            #expect(try await users.user(id: registered.id) == registered)
            let cancelled = try await driver.read { db in
                try await db.raw("SELECT id FROM users WHERE email = 'cancelled@example.com'").all()
            }
            #expect(cancelled.isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func migratingTwiceAppliesNothingTheSecondTime(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, _, _, _) async throws in
            #expect(try await Migrator.migrate(driver).isEmpty)
            #expect(try await Migrator.currentVersion(driver) == Migrator.all.last?.version)
        }
    }

    /// Many nodes share one PostgreSQL database and may start at once; SQLite serves a single process.
    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil))
    func concurrentMigrationsOnPostgreSQLDoNotRace() async throws {
        let configuration = try await TestDatabase.postgres.freshConfiguration()
        var drivers: [any DatabaseDriver] = []
        for _ in 0..<3 {
            drivers.append(try await DatabaseDriverFactory.open(configuration: configuration, logger: Logger(label: "test")))
        }
        let opened = drivers
        let applied = await withTaskGroup(of: Result<[Int], any Error>.self) { group in
            for driver in opened {
                group.addTask {
                    do { return .success(try await Migrator.migrate(driver)) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for driver in drivers { await driver.shutdown() }
        let versions = try applied.map { try $0.get() }
        #expect(versions.filter { !$0.isEmpty } == [Migrator.all.map(\.version)])
    }

    @Test(arguments: TestDatabase.available)
    func everyChangeTakesTheUsersNextNumber(_ database: TestDatabase) async throws {
        try await withStores(database) { (_, users, entries, _) async throws in
            let alice = try await users.registerEmailUser(email: "alice@example.com", passwordHash: "x")
            let bob = try await users.registerEmailUser(email: "bob@example.com", passwordHash: "x")
            let first = try await entries.create(textEntry("one"), userID: alice.id).entry
            let bobs = try await entries.create(textEntry("bob's"), userID: bob.id).entry
            let second = try await entries.create(textEntry("two"), userID: alice.id).entry
            let edited = try #require(try await entries.edit(id: first.id, userID: alice.id, EntryEdit(title: "First")))
            #expect([first.changeSeq, second.changeSeq, edited.changeSeq] == [Int]([1, 2, 3]))
            #expect(bobs.changeSeq == 1)

            let changes = try await entries.changes(userID: alice.id, after: 1, limit: 10)
            #expect(changes.entries.map(\.id) == [second.id, first.id] && !changes.hasMore)
            #expect(try await entries.changes(userID: alice.id, after: 0, limit: 1).hasMore)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aTombstoneKeepsNoContent(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, users, entries, _) async throws in
            let user = try await users.registerEmailUser(email: "a@example.com", passwordHash: "x")
            let entry = try await entries.create(textEntry("a private thought"), userID: user.id).entry
            _ = try await entries.edit(id: entry.id, userID: user.id, EntryEdit(title: "Secret", tags: ["private"], mood: 2))
            #expect(try await entries.moveToRecentlyDeleted(id: entry.id, userID: user.id, retention: 60) != .notFound)
            #expect(try await entries.erase(id: entry.id, userID: user.id).found)

            let row = try await driver.read { db in
                try await db.raw("SELECT \(unsafeRaw: EntryRecord.columns) FROM entries WHERE id = \(bind: entry.id.lowercased)")
                    .first()
            }
            let tombstone = try EntryRecord(row: try #require(row))
            #expect(tombstone.deletedAt != nil)
            #expect(tombstone.title == nil && tombstone.transcriptClean == nil && tombstone.tags.isEmpty && tombstone.mood == nil)
            #expect(try await entries.entry(id: entry.id, userID: user.id) == nil)
            #expect(try await entries.moveToRecentlyDeleted(id: entry.id, userID: user.id, retention: 60) == .notFound)
            #expect(try await entries.erase(id: entry.id, userID: user.id).found == false)
        }
    }

    @Test(arguments: TestDatabase.available)
    func emailsAreUnique(_ database: TestDatabase) async throws {
        try await withStores(database) { (_, users, _, _) async throws in
            _ = try await users.registerEmailUser(email: "same@example.com", passwordHash: "x")
            await #expect(throws: UserStore.RegistrationError.emailTaken) {
                try await users.registerEmailUser(email: "same@example.com", passwordHash: "y")
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func whatARequestCheckedBeforeTheSessionsEndedChangesNothingAfter(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, users, _, _) async throws in
            // Given a person whose sign-in, password change and link were checked, and then every session ended
            // (the address's owner took the account back, say) before they were written
            let sessions = SessionStore(driver: driver)
            let user = try await users.registerEmailUser(email: "race@example.com", passwordHash: "checked")
            try await users.markAddressConfirmedForTest(user.id)
            try await users.signOutEverywhere(userID: user.id)
            let later = Date().addingTimeInterval(3600)
            // Then no session starts from the sign-in checked before
            #expect(
                try await !sessions.startFamily(
                    userID: user.id, tokenVersion: user.tokenVersion, tokenHash: "late", expiresAt: later))
            #expect(try await sessions.rotate(presentedHash: "late", newHash: "later") == .invalid)
            // And no identity is linked for the request made before
            let link = try await users.link(
                provider: "google", subject: "late-google", email: nil, to: user.id, tokenVersion: user.tokenVersion)
            #expect(link == .sessionEnded)
            // And a password change proved with a password that is no longer the account's changes nothing
            try await driver.write { db in
                try await db.raw("UPDATE users SET password_hash = \(bind: "the owner's") WHERE id = \(bind: user.id.lowercased)")
                    .run()
            }
            let changed = try await users.changePassword(
                userID: user.id, currentHash: "checked", newHash: "the stranger's", newRefreshTokenHash: "h", expiresAt: later)
            #expect(changed == nil)
            #expect(try await users.passwordHash(userID: user.id) == "the owner's")
        }
    }

    @Test(arguments: TestDatabase.available)
    func aSignInInUseStaysUpToAYearAndOneLeftAloneEnds(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, users, _, _) async throws in
            let sessions = SessionStore(driver: driver, retryGrace: .zero)
            let user = try await users.registerEmailUser(email: "daily@example.com", passwordHash: "x")
            let day = 24 * 3600 * 1000
            // Moves the sign-in of the token `hash` `days` into the past, the token ending `endsIn` days from now.
            func age(_ hash: String, signedInDaysAgo days: Int, endsIn: Int) async throws {
                try await driver.write { db in
                    try await db.raw(
                        """
                        UPDATE refresh_tokens SET created_at = \(bind: StoredTime.now() - days * day),
                            expires_at = \(bind: StoredTime.now() + endsIn * day)
                        WHERE token_hash = \(bind: hash)
                        """
                    ).run()
                }
            }
            func ends(_ hash: String) async throws -> Int {
                try await driver.read { db in
                    try await db.raw("SELECT expires_at FROM refresh_tokens WHERE token_hash = \(bind: hash)").first()!
                        .decode(column: "expires_at", as: Int.self)
                }
            }
            // Given a sign-in of 200 days ago whose token ends tomorrow
            try await sessions.startFamily(userID: user.id, tokenHash: "old", expiresAt: Date().addingTimeInterval(60))
            try await age("old", signedInDaysAgo: 200, endsIn: 1)
            // When it is used, the new token lives 30 days from now
            #expect(try await sessions.rotate(presentedHash: "old", newHash: "used").rotatedUserID == user.id)
            let slid = try await ends("used") - StoredTime.now()
            #expect(slid > 29 * day && slid <= 30 * day)
            // Given a sign-in of 360 days ago: its new token ends at its first anniversary, not 30 days on
            try await sessions.startFamily(userID: user.id, tokenHash: "aged", expiresAt: Date().addingTimeInterval(60))
            try await age("aged", signedInDaysAgo: 360, endsIn: 1)
            #expect(try await sessions.rotate(presentedHash: "aged", newHash: "last").rotatedUserID == user.id)
            let bounded = try await ends("last") - StoredTime.now()
            #expect(bounded > 4 * day && bounded <= 5 * day)
            // And a token left alone past its end is no way back in
            try await sessions.startFamily(userID: user.id, tokenHash: "idle", expiresAt: Date().addingTimeInterval(60))
            try await age("idle", signedInDaysAgo: 31, endsIn: -1)
            #expect(try await sessions.rotate(presentedHash: "idle", newHash: "never") == .invalid)
        }
    }

    @Test(arguments: TestDatabase.available)
    func refreshTokensRotateOnceAndReuseRevokesTheFamily(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, users, _, _) async throws in
            // Given a store without a retry grace window
            let sessions = SessionStore(driver: driver, retryGrace: .zero)
            let user = try await users.registerEmailUser(email: "r@example.com", passwordHash: "x")
            let later = Date().addingTimeInterval(3600)
            try await sessions.startFamily(userID: user.id, tokenHash: "h1", expiresAt: later)
            #expect(
                try await sessions.rotate(presentedHash: "h1", newHash: "h2").rotatedUserID == user.id)
            // When the used token comes back, then the family ends: its live successor too
            guard case .reused(user.id, _) = try await sessions.rotate(presentedHash: "h1", newHash: "h3")
            else {
                Issue.record("reuse was not detected")
                return
            }
            #expect(try await sessions.rotate(presentedHash: "h2", newHash: "h4") == .invalid)
            #expect(try await sessions.rotate(presentedHash: "unknown", newHash: "h5") == .invalid)

            try await sessions.startFamily(userID: user.id, tokenHash: "old", expiresAt: Date().addingTimeInterval(-1))
            #expect(try await sessions.rotate(presentedHash: "old", newHash: "h6") == .invalid)
        }
    }

    @Test(arguments: TestDatabase.available)
    func concurrentRefreshesWithOneTokenRotateItOnce(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, users, _, _) async throws in
            let sessions = SessionStore(driver: driver, retryGrace: .zero)
            let user = try await users.registerEmailUser(email: "race@example.com", passwordHash: "x")
            let later = Date().addingTimeInterval(3600)
            try await sessions.startFamily(userID: user.id, tokenHash: "shared", expiresAt: later)
            // Given, on PostgreSQL, the tokens' table held by another transaction, so that refreshes meet there
            // (SQLite writes one transaction at a time by design: there they can only take turns)
            let holder = TableHolder(driver: driver, table: "refresh_tokens", mode: .accessExclusive)
            try await holder.hold()

            // When eight requests present the same token at once: on PostgreSQL all eight wait for the table, then
            // are let go together
            let rotating = Task {
                try await withThrowingTaskGroup(of: SessionStore.Rotation.self) { group in
                    for attempt in 0..<8 {
                        group.addTask {
                            try await sessions.rotate(presentedHash: "shared", newHash: "next-\(attempt)")
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            try await holder.release(onceWaiting: 8)
            let outcomes = try await rotating.value

            // Then exactly one of them rotates it
            #expect(outcomes.filter { $0.rotatedUserID == user.id }.count == 1, "\(outcomes)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func aRetryWithinTheGraceWindowGetsASecondTokenUntilTheFirstIsUsed(_ database: TestDatabase) async throws {
        try await withStores(database) { (_, users, _, sessions) async throws in
            let user = try await users.registerEmailUser(email: "g@example.com", passwordHash: "x")
            let later = Date().addingTimeInterval(3600)
            try await sessions.startFamily(userID: user.id, tokenHash: "a1", expiresAt: later)
            #expect(
                try await sessions.rotate(presentedHash: "a1", newHash: "a2").rotatedUserID == user.id)
            // When the same token is retried at once (the answer was lost), then the retry is answered too
            #expect(
                try await sessions.rotate(presentedHash: "a1", newHash: "a3").rotatedUserID == user.id)
            // When the client moves on with its newest token, then the old one may not be retried any more
            #expect(
                try await sessions.rotate(presentedHash: "a3", newHash: "a4").rotatedUserID == user.id)
            guard case .reused = try await sessions.rotate(presentedHash: "a1", newHash: "a5") else {
                Issue.record("a retry after the successor was used must end the family")
                return
            }
            #expect(try await sessions.rotate(presentedHash: "a4", newHash: "a6") == .invalid)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aFailedWriteChangesNothing(_ database: TestDatabase) async throws {
        try await withStores(database) { (driver, users, entries, _) async throws in
            let user = try await users.registerEmailUser(email: "t@example.com", passwordHash: "x")
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await driver.write { db in
                    _ = try await EntryStore.nextChange(db, userID: user.id)
                    throw Abort()
                }
            }
            let entry = try await entries.create(textEntry("after"), userID: user.id).entry
            #expect(entry.changeSeq == 1)
        }
    }
}

extension UserStore {
    /// Marks the address confirmed, as a mailed link would, for tests of the store alone.
    fileprivate func markAddressConfirmedForTest(_ userID: UUID) async throws {
        try await driver.write { db in
            try await db.raw("UPDATE users SET email_verified_at = 1 WHERE id = \(bind: userID.lowercased)").run()
        }
    }
}
