import Foundation
import MyDaySearch
import Observation

/// The daily reminder in Profile: on or off, its time and days, whether it also comes by mail, and the browsers it goes
/// to as notifications. The device shows it itself too (the iPhone as local notifications, planned by
/// `notificationTimes`).
@MainActor
@Observable
public final class ReminderViewModel {
    public private(set) var reminder: ReminderSettings?
    public private(set) var errorMessage: String?
    public private(set) var isLoaded = false
    /// Browsers subscribed in the web app; each can be stopped from here.
    public private(set) var browsers: [NotifiedBrowser] = []

    /// The form, as loaded or as the person set it: on or off, the time, the days and whether it also comes by mail.
    public var isOn = false
    public var hour = 21
    public var minute = 0
    public var days = Set(ReminderSettings.Weekday.allCases)
    public var email = false

    private let core: ClientCore
    private let timeZone: TimeZone
    private let planNotifications: @MainActor ([Date]) async -> Void

    /// The form's time as a moment of today, for a time picker.
    public var time: Date {
        get { Calendar.current.date(from: DateComponents(hour: hour, minute: minute)) ?? Date() }
        set {
            let parts = Calendar.current.dateComponents([.hour, .minute], from: newValue)
            (hour, minute) = (parts.hour ?? 21, parts.minute ?? 0)
        }
    }

    /// The reminder's time zone when it is not this device's (it was saved elsewhere): its time is that zone's until it
    /// is saved here again.
    public var otherTimeZone: String? {
        guard let reminder, reminder.timeZone != timeZone.identifier else { return nil }
        return reminder.timeZone
    }

    /// `planNotifications` replaces the device's own notifications of the reminder with those at the times given.
    public init(
        core: ClientCore, timeZone: TimeZone = .current, planNotifications: @escaping @MainActor ([Date]) async -> Void = { _ in }
    ) {
        self.core = core
        self.timeZone = timeZone
        self.planNotifications = planNotifications
    }

    /// Reads the reminder and the browsers it goes to, fills the form with it, and plans the device's notifications.
    public func open() async {
        await load()
        await loadBrowsers()
        guard let reminder else { return }
        (isOn, hour, minute, days, email) = (true, reminder.hour, reminder.minute, reminder.days, reminder.email)
        await planNotifications(notificationTimes(now: Date()))
    }

    /// The form's switch was turned: turned off, the reminder (if there is one) and its notifications end.
    public func switchTurned() async {
        guard !isOn, reminder != nil else { return }
        await turnOff()
        await planNotifications([])
    }

    /// Saves the form, and plans the notifications of the reminder the server took.
    public func saveForm() async {
        guard await save(hour: hour, minute: minute, days: days, email: email) else { return }
        await planNotifications(notificationTimes(now: Date()))
    }

    public func load() async {
        do {
            reminder = try await core.client.reminder()
            isLoaded = true
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Fetches the browsers the reminder goes to.
    public func loadBrowsers() async {
        do {
            browsers = try await core.client.notifiedBrowsers()
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Stops notifications to one browser.
    public func stopNotifying(_ browser: NotifiedBrowser) async {
        do {
            try await core.client.stopNotifying(browser.id)
            browsers.removeAll { $0.id == browser.id }
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// Turns the reminder on, or changes it, in this device's time zone; answers whether the server took it.
    @discardableResult
    public func save(hour: Int, minute: Int, days: Set<ReminderSettings.Weekday>, email: Bool) async -> Bool {
        guard !days.isEmpty else {
            errorMessage = "Choose at least one day."
            return false
        }
        do {
            reminder = try await core.client.setReminder(
                ReminderSettings(hour: hour, minute: minute, timeZone: timeZone.identifier, days: days, email: email))
            errorMessage = nil
            return true
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
            return false
        }
    }

    /// Turns the reminder off.
    public func turnOff() async {
        do {
            try await core.client.deleteReminder()
            reminder = nil
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// When this device should show the reminder from `now` on (none when it is off): today is left out once the diary
    /// on this device has an entry made today, in the reminder's zone.
    public func notificationTimes(now: Date) -> [Date] {
        guard let reminder else { return [] }
        let zone = TimeZone(identifier: reminder.timeZone) ?? timeZone
        let today = LocalDay(now, in: zone)
        let todayHasEntry = ((try? core.store.entries()) ?? []).contains { LocalDay($0.createdAt, in: zone) == today }
        return Self.notificationTimes(for: reminder, now: now, todayHasEntry: todayHasEntry)
    }

    /// When the device should show the reminder over the next `days` days, soonest first: each of the reminder's days
    /// at its time, in its zone, from `now` on, leaving out today when today already has an entry (or its time has
    /// passed). Scheduled one by one rather than repeating, so a day with an entry can be skipped. Eight days: today
    /// and a week on, so a weekly reminder whose time has passed today is still planned for next week.
    public nonisolated static func notificationTimes(
        for reminder: ReminderSettings, now: Date, todayHasEntry: Bool, days: Int = 8
    ) -> [Date] {
        let zone = TimeZone(identifier: reminder.timeZone) ?? .current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = LocalDay(now, in: zone)
        var times: [Date] = []
        for offset in 0..<days {
            let day = today.adding(days: offset)
            let parts = DateComponents(year: day.year, month: day.month, day: day.day)
            guard let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
            else { continue }
            let weekday = ReminderSettings.Weekday.allCases[(calendar.component(.weekday, from: noon) + 5) % 7]
            guard reminder.days.contains(weekday), !(offset == 0 && todayHasEntry) else { continue }
            // A time that daylight saving skips that day comes at the first minute after it, as on the server.
            var wanted = parts
            wanted.hour = reminder.hour
            wanted.minute = reminder.minute
            guard
                let time = calendar.nextDate(
                    after: calendar.startOfDay(for: noon) - 1, matching: wanted, matchingPolicy: .nextTime),
                time > now
            else { continue }
            times.append(time)
        }
        return times
    }
}
