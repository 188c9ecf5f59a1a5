import Foundation
import Logging
import MyDaySearch
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDayServer

/// Daily reminders: `PUT /v1/me/reminder`, sent at the local minute whatever daylight saving does, not on a day with
/// an entry, once however many workers look, and stopped by the mail's link.
@Suite struct ReminderTests {
    private func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    private func reminder(_ time: String, days: Set<Reminder.Weekday> = Set(Reminder.Weekday.allCases), lastDay: Int = 0)
        -> Reminder
    {
        Reminder(
            userID: UUID(), minuteOfDay: Reminder.minute(of: time)!, zoneName: "Europe/Berlin", days: days, email: true,
            lastDay: lastDay)
    }

    @Test func itIsDueAtTheLocalMinuteOnBothSidesOfADaylightSavingChange() {
        let nine = reminder("21:00")
        // Saturday 28 March 2026, winter time (UTC+1): 21:00 is 20:00 UTC
        #expect(nine.dueDay(at: at("2026-03-28T19:59:00Z")) == nil)
        #expect(nine.dueDay(at: at("2026-03-28T20:00:00Z")) == LocalDay(iso: "2026-03-28"))
        // Sunday 29 March, summer time from 02:00 (UTC+2): 21:00 is 19:00 UTC
        #expect(nine.dueDay(at: at("2026-03-29T18:59:00Z")) == nil)
        #expect(nine.dueDay(at: at("2026-03-29T19:00:00Z")) == LocalDay(iso: "2026-03-29"))
        // Within the hour after it, never later
        #expect(nine.dueDay(at: at("2026-03-29T19:59:00Z")) != nil && nine.dueDay(at: at("2026-03-29T20:00:00Z")) == nil)
        // Sunday 25 October, back to winter time at 03:00: 21:00 is 20:00 UTC again
        #expect(nine.dueDay(at: at("2026-10-25T19:00:00Z")) == nil)
        #expect(nine.dueDay(at: at("2026-10-25T20:00:00Z")) == LocalDay(iso: "2026-10-25"))
        // A time the spring change skips (02:30) is due at the first minute after it, 03:00 summer time
        let skipped = reminder("02:30")
        #expect(skipped.dueDay(at: at("2026-03-29T00:59:00Z")) == nil)
        #expect(skipped.dueDay(at: at("2026-03-29T01:00:00Z")) == LocalDay(iso: "2026-03-29"))
        #expect(skipped.dueDay(at: at("2026-03-29T01:59:00Z")) != nil && skipped.dueDay(at: at("2026-03-29T02:00:00Z")) == nil)
        // So is the very minute the gap begins (02:00), and a half-hour gap's minute (Lord Howe, 02:00 to 02:30)
        let gapStart = reminder("02:00")
        #expect(gapStart.dueDay(at: at("2026-03-29T00:59:00Z")) == nil)
        #expect(gapStart.dueDay(at: at("2026-03-29T01:00:00Z")) == LocalDay(iso: "2026-03-29"))
        let lordHowe = Reminder(
            userID: UUID(), minuteOfDay: Reminder.minute(of: "02:10")!, zoneName: "Australia/Lord_Howe",
            days: Set(Reminder.Weekday.allCases), email: true)
        #expect(lordHowe.dueDay(at: at("2026-10-03T15:29:00Z")) == nil)
        #expect(lordHowe.dueDay(at: at("2026-10-03T15:30:00Z")) == LocalDay(iso: "2026-10-04"))
        #expect(lordHowe.dueDay(at: at("2026-10-03T16:29:00Z")) != nil && lordHowe.dueDay(at: at("2026-10-03T16:30:00Z")) == nil)
        // Only on its days, and once a day
        #expect(reminder("21:00", days: [.mon]).dueDay(at: at("2026-03-29T19:00:00Z")) == nil)
        #expect(reminder("21:00", days: [.sun]).dueDay(at: at("2026-03-29T19:00:00Z")) != nil)
        #expect(reminder("21:00", lastDay: 2026_03_29).dueDay(at: at("2026-03-29T19:10:00Z")) == nil)
    }

    @Test func aStopTokenNamesItsAccountAndNothingElseReadsAsOne() {
        let tokens = ReminderStopToken(secret: Array("a test secret of the server, long enough".utf8))
        let id = UUID()
        let token = tokens.token(for: id)
        #expect(tokens.userID(of: token) == id)
        #expect(ReminderStopToken(secret: Array("another server's secret entirely, also long".utf8)).userID(of: token) == nil)
        #expect(tokens.userID(of: UUID().uuidString.lowercased() + token.dropFirst(36)) == nil)
        #expect(tokens.userID(of: "") == nil && tokens.userID(of: String(token.prefix(36))) == nil)
    }

    @Test(arguments: TestDatabase.available)
    func aReminderIsMailedOnceAtItsMinuteNotOnADayWithAnEntryAndItsLinkStopsIt(_ database: TestDatabase) async throws {
        let server = try await TestServer.mailing(database) { $0.reminderInterval = .seconds(3600) }
        try await server.run { api in
            let me = try await api.register("reminded@example.com")
            try await server.markAddressConfirmed(userID: me.userID)
            // Bad reminders are refused and set nothing
            for bad: [String: Any] in [
                ["time": "25:00", "tz": "Europe/Berlin", "days": ["sun"]], ["time": "21:00", "tz": "Europe/Berlin", "days": []],
                ["time": "21:00", "tz": "Mars/Olympus", "days": ["sun"]],
                ["time": "9:00", "tz": "Europe/Berlin", "days": ["sun"]],
                ["time": "21:00", "tz": "Europe/Berlin", "days": ["sun", "sun"]],
                ["time": "21:00", "tz": "Europe/Berlin", "days": ["someday"]],
            ] {
                let status = try await api.send(.put, "/v1/me/reminder", token: me.accessToken, json: bad).status.code
                #expect([400, 422].contains(status), "\(bad)")
            }
            #expect(try await api.send(.get, "/v1/me/reminder", token: me.accessToken).status == .notFound)
            // Given a reminder at 21:00 in Berlin every day, by mail
            let set = try await api.send(
                .put, "/v1/me/reminder", token: me.accessToken,
                json: ["time": "21:00", "tz": "Europe/Berlin", "days": ["sun", "mon"], "email": true], expecting: .ok)
            #expect(set.json["days"] as? [String] == ["mon", "sun"] && set.json["time"] as? String == "21:00")
            #expect(
                try await api.send(.get, "/v1/me/reminder", token: me.accessToken, expecting: .ok).json["email"] as? Bool == true)

            // When two workers look, at 20:59 and then at 21:00 on the day clocks went forward
            let now = Mutex(at("2026-03-29T18:59:00Z"))
            let queued = try await server.withDatabase { driver in
                let workers = (0..<2).map { _ in
                    ReminderService(
                        reminders: ReminderStore(driver: driver), subscriptions: PushSubscriptionStore(driver: driver),
                        clock: { now.withLock { $0 } },
                        logger: Logger(label: "test-reminders"))
                }
                let early = try await workers[0].round()
                now.withLock { $0 = try! Date("2026-03-29T19:00:00Z", strategy: .iso8601) }
                async let first = workers[0].round()
                async let second = workers[1].round()
                let both = try await [first, second]
                return (early, both, try await workers[1].round())
            }
            // Then nothing at 20:59, exactly one of them queues it at 21:00, and nobody again that day
            #expect(queued.0 == 0 && queued.1.sorted() == [0, 1] && queued.2 == 0, "\(queued)")
            // And it is mailed, with a link that stops it and the one-click header
            let mail = try await server.awaitMail(to: "reminded@example.com", subject: "A minute for your diary?")
            #expect(mail.contains("\(TestServer.publicURL)/#/stop-reminders/"))
            #expect(mail.contains("List-Unsubscribe: <\(TestServer.publicURL)/v1/reminders/stop?token="))
            #expect(mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"))

            // The next day has an entry before 21:00: no reminder then
            try await api.send(
                .post, "/v1/entries", token: me.accessToken,
                json: [
                    "id": UUID().uuidString, "created_at": "2026-03-30T10:00:00Z", "tz": "Europe/Berlin", "duration_s": 0,
                    "kind": "text", "text": "Wrote before the reminder.",
                ], expecting: .created)
            let onADayWithAnEntry = try await server.withDatabase { driver in
                try await ReminderService(
                    reminders: ReminderStore(driver: driver), subscriptions: PushSubscriptionStore(driver: driver),
                    clock: { try! Date("2026-03-30T19:05:00Z", strategy: .iso8601) }, logger: Logger(label: "test-reminders")
                ).round()
            }
            #expect(onADayWithAnEntry == 0)
            try await server.awaitMailJobsRun()
            #expect(server.mails(to: "reminded@example.com", subject: "A minute for your diary?").count == 1)

            // The mail's link stops it without signing in; a link that is not the server's is refused
            let token = try TestServer.token(in: mail, page: "stop-reminders")
            #expect(try await api.send(.post, "/v1/reminders/stop?token=\(UUID().uuidString.lowercased())x").status.code == 422)
            #expect(try await api.send(.get, "/v1/me/reminder", token: me.accessToken).status == .ok)
            try await api.send(.post, "/v1/reminders/stop?token=\(token)", expecting: .noContent)
            #expect(try await api.send(.get, "/v1/me/reminder", token: me.accessToken).status == .notFound)
            // And ending one that is gone is no error
            try await api.send(.delete, "/v1/me/reminder", token: me.accessToken, expecting: .noContent)
        }
    }
}
