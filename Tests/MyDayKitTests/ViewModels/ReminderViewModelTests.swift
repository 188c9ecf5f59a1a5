import Foundation
import Synchronization
import Testing

@testable import MyDayKit

@MainActor
@Suite struct ReminderViewModelTests {
    let harness = CoreHarness()

    private func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    @Test func theDeviceShowsItOnItsDaysAtItsLocalTimeAndNotTodayWhenTodayHasAnEntry() {
        // Given 21:00 in Berlin on Sundays and Mondays, seen on Sunday 29 March 2026 at 10:00 (clocks went forward)
        let reminder = ReminderSettings(hour: 21, minute: 0, timeZone: "Europe/Berlin", days: [.sun, .mon], email: false)
        let now = at("2026-03-29T08:00:00Z")
        // Then today (summer time: 19:00 UTC) and Monday come, then next Sunday
        #expect(
            ReminderViewModel.notificationTimes(for: reminder, now: now, todayHasEntry: false, days: 8)
                == [at("2026-03-29T19:00:00Z"), at("2026-03-30T19:00:00Z"), at("2026-04-05T19:00:00Z")])
        // And today is skipped when it has an entry, or once its time has passed
        #expect(
            ReminderViewModel.notificationTimes(for: reminder, now: now, todayHasEntry: true, days: 2) == [
                at("2026-03-30T19:00:00Z")
            ])
        #expect(
            ReminderViewModel.notificationTimes(for: reminder, now: at("2026-03-29T19:30:00Z"), todayHasEntry: false, days: 2)
                .count == 1)
        // And a weekly reminder whose time has passed today is planned for the same day next week
        let mondays = ReminderSettings(hour: 7, minute: 30, timeZone: "Europe/Paris", days: [.mon], email: false)
        #expect(
            ReminderViewModel.notificationTimes(for: mondays, now: at("2026-12-07T07:05:00Z"), todayHasEntry: false)
                == [at("2026-12-14T06:30:00Z")])
        // And a time the change skips (02:30) comes at 03:00 that day
        let early = ReminderSettings(hour: 2, minute: 30, timeZone: "Europe/Berlin", days: [.sun], email: false)
        #expect(
            ReminderViewModel.notificationTimes(for: early, now: at("2026-03-28T12:00:00Z"), todayHasEntry: false, days: 2)
                == [at("2026-03-29T01:00:00Z")])
    }

    @Test func itIsSetInThisDevicesZoneAndTurnedOff() async {
        let saved = ReminderSettingsBox()
        var client = FakeMyDayClient()
        client.onReminder = { nil }
        client.onSetReminder = { reminder in
            saved.value = reminder
            return reminder
        }
        client.onDeleteReminder = {}
        let model = ReminderViewModel(core: harness.core(client), timeZone: Given.paris)
        await model.load()
        #expect(model.isLoaded && model.reminder == nil)
        // No day chosen: refused here, nothing sent
        #expect(await model.save(hour: 21, minute: 0, days: [], email: true) == false && model.errorMessage != nil)
        #expect(await model.save(hour: 21, minute: 15, days: [.mon, .fri], email: true))
        #expect(saved.value == ReminderSettings(hour: 21, minute: 15, timeZone: "Europe/Paris", days: [.mon, .fri], email: true))
        #expect(model.reminder?.time == "21:15" && model.errorMessage == nil && model.otherTimeZone == nil)
        await model.turnOff()
        #expect(model.reminder == nil)
    }

    @Test func theFormOpensAsTheServerHasItAndPlansTheDevicesNotifications() async {
        // Given a reminder at 07:30 on Mondays only, by mail
        var client = FakeMyDayClient()
        client.onReminder = { ReminderSettings(hour: 7, minute: 30, timeZone: "Europe/Paris", days: [.mon], email: true) }
        client.onNotifiedBrowsers = { [] }
        client.onSetReminder = { $0 }
        client.onDeleteReminder = {}
        var plans: [[Date]] = []
        let model = ReminderViewModel(core: harness.core(client), timeZone: Given.paris) { plans.append($0) }
        // Then a new form is off, at 21:00 every day
        #expect(!model.isOn && model.hour == 21 && model.minute == 0 && model.days.count == 7 && !model.email)
        // When Profile opens it, then the form is the reminder, and the device plans one notification a Monday
        await model.open()
        #expect(model.isOn && model.hour == 7 && model.minute == 30 && model.days == [.mon] && model.email)
        #expect(plans.count == 1 && (1...2).contains(plans[0].count))
        // When the person moves it to 21:05 and saves, then the server gets that, and the notifications are planned again
        model.time = Calendar.current.date(from: DateComponents(hour: 21, minute: 5)) ?? Date()
        await model.saveForm()
        #expect(model.reminder?.time == "21:05" && plans.count == 2)
        // When the switch is turned off, then the reminder and every notification end
        model.isOn = false
        await model.switchTurned()
        #expect(model.reminder == nil && plans.last == [])
        // And turning it off again with no reminder asks nothing
        await model.switchTurned()
        #expect(plans.count == 3)
        #expect(ReminderSettings.Weekday.allCases.map(\.name).first == "Monday")
    }

    @Test func aReminderSavedInAnotherZoneSaysWhichUntilSavedHere() async {
        // Given a reminder saved on a device in Chatham time
        var client = FakeMyDayClient()
        client.onReminder = { ReminderSettings(hour: 7, minute: 0, timeZone: "Pacific/Chatham", days: [.mon], email: false) }
        client.onSetReminder = { $0 }
        let model = ReminderViewModel(core: harness.core(client), timeZone: Given.paris)
        // When it is read in Paris, then its zone is said
        await model.load()
        #expect(model.otherTimeZone == "Pacific/Chatham")
        // And once saved here, it is Paris time
        #expect(await model.save(hour: 7, minute: 0, days: [.mon], email: false))
        #expect(model.otherTimeZone == nil && model.reminder?.timeZone == "Europe/Paris")
    }

    @Test func theBrowsersNotifiedAreListedByTheirMakerAndStoppedOneByOne() async {
        // Given a Chrome and a Firefox subscribed in the web app
        let chrome = NotifiedBrowser(id: UUID(), pushService: "fcm.googleapis.com", since: at("2026-03-01T10:00:00Z"))
        let firefox = NotifiedBrowser(
            id: UUID(), pushService: "updates.push.services.mozilla.com", since: at("2026-02-01T10:00:00Z"))
        let stopped = Mutex<[UUID]>([])
        var client = FakeMyDayClient()
        client.onNotifiedBrowsers = { [chrome, firefox] }
        client.onStopNotifying = { id in stopped.withLock { $0.append(id) } }
        let model = ReminderViewModel(core: harness.core(client), timeZone: Given.paris)
        await model.loadBrowsers()
        #expect(model.browsers.map(\.maker) == ["Chrome or another Chromium browser", "Firefox"])
        // When one is stopped, only it is asked to stop, and it leaves the list
        await model.stopNotifying(chrome)
        #expect(stopped.withLock { $0 } == [chrome.id])
        #expect(model.browsers == [firefox] && model.errorMessage == nil)
    }
}

/// What the fake server was sent.
private final class ReminderSettingsBox: Sendable {
    private let stored = Mutex<ReminderSettings?>(nil)
    var value: ReminderSettings? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
