import Foundation
import HTTPTypes
import MyDayMail
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// A new address: it changes only when the link mailed to it is opened, sign-in follows it, and the old address is told.
@Suite struct EmailChangeTests {
    private func login(_ api: APIClient, _ email: String) async throws -> HTTPResponse.Status {
        try await api.send(.post, "/v1/auth/email/login", json: ["email": email, "password": "correct horse battery"]).status
    }

    /// Runs a claimed address-change mail job as a worker would (any mail fails the test); answers how many
    /// address-change links the user has then.
    private func runChangeMail(_ job: JobRecord, userID: String, on driver: any DatabaseDriver) async throws -> Int {
        let handler = AccountMailHandler(
            mail: .emailChange, users: UserStore(driver: driver), mailer: UnexpectedMail(),
            publicURL: TestServer.publicURL, logger: .init(label: "test"))
        _ = try await handler.run(job)
        return try await driver.read { db in
            try await db.raw(
                "SELECT COUNT(*) AS n FROM email_tokens WHERE user_id = \(bind: userID) AND purpose = 'change_email'"
            ).first()!.decode(column: "n", as: Int.self)
        }
    }

    @Test(arguments: TestDatabase.available)
    func theAddressChangesWhenTheNewOnesLinkIsOpenedAndTheOldIsTold(_ database: TestDatabase) async throws {
        let server = try await TestServer.mailing(database)
        try await server.run { api in
            // Given an account with a confirmed address, signed in just now
            let old = "river-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let new = "harbour-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let session = try await api.register(old)
            try await api.confirmAddress(old, session: session, on: server)

            // When a new address is asked for
            let asked = try await api.send(
                .post, "/v1/me/email", token: session.accessToken, json: ["email": " \(new.uppercased()) "])
            #expect(asked.status == .accepted, "\(asked.text)")
            // Then a link goes to the new address, and nothing has changed yet
            let mail = try await server.awaitMail(to: new, subject: "Confirm your new address")
            #expect(mail.contains(old) && mail.contains("\(TestServer.publicURL)/#/verify/"))
            #expect(try await api.send(.get, "/v1/me", token: session.accessToken).json["email"] as? String == old)
            #expect(try await login(api, old) == .ok)

            // When the link is opened (signed in or not)
            let token = try TestServer.token(in: mail, page: "verify")
            let opened = try await api.send(.post, "/v1/auth/email/verify", json: ["token": token])
            #expect(opened.status == .ok && opened.json["email"] as? String == new, "\(opened.text)")
            // Then the account's address is the new one, confirmed; sign-in takes the new one only
            let me = try await api.send(.get, "/v1/me", token: session.accessToken).json
            #expect(me["email"] as? String == new && me["email_verified"] as? Bool == true)
            #expect(try await login(api, new) == .ok)
            #expect(try await login(api, old) == .unauthorized)
            // And the old address is told where the account went
            let told = try await server.awaitMail(to: old, subject: "Your My Day address was changed")
            #expect(told.contains(new))
            // And the link works once
            #expect(try await api.send(.post, "/v1/auth/email/verify", json: ["token": token]).status != .ok)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aChangeAskedForBySomeoneSignedInEndsWhenTheOwnerSignsEveryoneOut(_ database: TestDatabase) async throws {
        let server = try await TestServer.mailing(database)
        try await server.run { api in
            // Given an account whose password someone else has, who asks for their own address and gets its link
            let owners = "owner-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let strangers = "stranger-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let intruder = try await api.register(owners)
            try await api.confirmAddress(owners, session: intruder, on: server)
            try await api.send(
                .post, "/v1/me/email", token: intruder.accessToken, json: ["email": strangers], expecting: .accepted)
            let mail = try await server.awaitMail(to: strangers, subject: "Confirm your new address")

            // When the owner signs every device out
            let owner = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": owners, "password": "correct horse battery"], expecting: .ok)
            let ownerToken = try #require(owner.json["access_token"] as? String)
            try await api.send(.post, "/v1/auth/logout-all", token: ownerToken, expecting: .noContent)

            // Then the link no longer changes the address, and the owner still signs in with theirs
            let opened = try await api.send(
                .post, "/v1/auth/email/verify", json: ["token": try TestServer.token(in: mail, page: "verify")])
            #expect(opened.status != .ok, "\(opened.text)")
            #expect(try await login(api, owners) == .ok)
            #expect(try await login(api, strangers) == .unauthorized)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aChangeWhoseMailIsUnderWayWhenTheOwnerSignsEveryoneOutMakesNoLink(_ database: TestDatabase) async throws {
        // A server without workers: the mail job waits until this test runs it
        let server = try await TestServer.make(database) { $0.publicURL = TestServer.publicURL }
        try await server.run { api in
            // Given someone signed in with the owner's password who asks for their own address
            let owners = "owner-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let strangers = "stranger-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let intruder = try await api.register(owners)
            try await api.send(
                .post, "/v1/me/email", token: intruder.accessToken, json: ["email": strangers], expecting: .accepted)
            try await server.withDatabase { driver in
                // And a worker that took the mail's job and has not made its link yet
                let job = try #require(
                    try await JobQueue(driver: driver).claim(
                        kinds: [AccountMail.Kind.emailChange.rawValue], workerID: "w", lease: .seconds(600)))

                // When the owner signs every device out meanwhile
                let owner = try await api.send(
                    .post, "/v1/auth/email/login", json: ["email": owners, "password": "correct horse battery"],
                    expecting: .ok)
                try await api.send(
                    .post, "/v1/auth/logout-all", token: try #require(owner.json["access_token"] as? String),
                    expecting: .noContent)
                // And the worker goes on, then no link to the stranger's address exists, and nothing was mailed there
                #expect(try await runChangeMail(job, userID: intruder.userID, on: driver) == 0)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aChangesMailQueuedWithoutTheAskingSessionsVersionMakesNoLink(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.publicURL = TestServer.publicURL }
        try await server.run { api in
            // Given an address change's mail queued as it was before the mail carried the asking request's token version
            let session = try await api.register()
            let userID = try #require(UUID(uuidString: session.userID))
            try await server.withDatabase { driver in
                try await driver.write { db in
                    _ = try await JobQueue.enqueue(
                        kind: AccountMail.Kind.emailChange.rawValue,
                        payload: AccountMail(userID: userID, email: "elsewhere@example.com").json, userID: userID, in: db)
                }
                let job = try #require(
                    try await JobQueue(driver: driver).claim(
                        kinds: [AccountMail.Kind.emailChange.rawValue], workerID: "w", lease: .seconds(600)))
                // When a worker runs it, then it makes no link and mails nothing: whoever asked cannot be told apart from
                // someone signed out since
                #expect(try await runChangeMail(job, userID: session.userID, on: driver) == 0)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func badRequestsChangeNothingAndATakenAddressIsNotTakenOver(_ database: TestDatabase) async throws {
        let server = try await TestServer.mailing(database)
        try await server.run { api in
            let mine = "mine-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let theirs = "theirs-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            let session = try await api.register(mine)
            // Bad addresses, and the account's own, are refused
            for bad in ["not an address", "a@b", mine] {
                let reply = try await api.send(.post, "/v1/me/email", token: session.accessToken, json: ["email": bad])
                #expect(reply.status == .unprocessableContent, "\(bad): \(reply.text)")
            }
            // A wrong password as the proof is refused
            let wrong = try await api.send(
                .post, "/v1/me/email", token: session.accessToken,
                json: ["email": "other@example.com", "reauthentication": ["password": "not the password"]])
            #expect(wrong.status == .forbidden && wrong.errorCode == "reauthentication_needed")

            // Given a link for an address that another account then registers
            try await api.send(.post, "/v1/me/email", token: session.accessToken, json: ["email": theirs], expecting: .accepted)
            let mail = try await server.awaitMail(to: theirs, subject: "Confirm your new address")
            _ = try await api.register(theirs)
            // When the link is opened, it says so, and neither account changes
            let opened = try await api.send(
                .post, "/v1/auth/email/verify", json: ["token": try TestServer.token(in: mail, page: "verify")])
            #expect(opened.status == .conflict, "\(opened.text)")
            #expect(try await api.send(.get, "/v1/me", token: session.accessToken).json["email"] as? String == mine)
            #expect(try await login(api, theirs) == .ok)
        }
    }
}

/// A mailer for a test that expects no mail: any message fails the test.
private struct UnexpectedMail: Mailer {
    func send(_ message: MailMessage) async throws {
        Issue.record("no mail was expected, but one went to \(message.to): \(message.subject)")
    }
}
