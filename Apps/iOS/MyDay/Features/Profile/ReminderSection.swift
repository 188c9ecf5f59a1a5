import MyDayKit
import SwiftUI

/// "Daily reminder": on or off, its time and days, and whether it also comes by mail; planned on this iPhone as local
/// notifications, skipped on a day that already has an entry. The browsers it also goes to (turned on in the web app)
/// are listed, each stopped with a swipe.
struct ReminderSection: View {
    @State var viewModel: ReminderViewModel
    @State private var isOn = false
    @State private var time = Calendar.current.date(from: DateComponents(hour: 21, minute: 0)) ?? Date()
    @State private var days = Set(ReminderSettings.Weekday.allCases)
    @State private var email = false

    private static let dayNames: [ReminderSettings.Weekday: String] = [
        .mon: "Monday", .tue: "Tuesday", .wed: "Wednesday", .thu: "Thursday", .fri: "Friday", .sat: "Saturday",
        .sun: "Sunday",
    ]

    var body: some View {
        Section {
            Toggle("Remind me", isOn: $isOn)
                .onChange(of: isOn) { _, on in
                    guard !on, viewModel.reminder != nil else { return }
                    Task {
                        await viewModel.turnOff()
                        await ReminderNotifications.plan([])
                    }
                }
            if isOn {
                DatePicker("At", selection: $time, displayedComponents: .hourAndMinute)
                if let zone = viewModel.otherTimeZone {
                    Text(
                        "At this time in \(zone); this iPhone is in \(TimeZone.current.identifier). Save the reminder to use this iPhone's time zone."
                    )
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                }
                ForEach(ReminderSettings.Weekday.allCases, id: \.self) { day in
                    Toggle(
                        Self.dayNames[day] ?? day.rawValue,
                        isOn: Binding(
                            get: { days.contains(day) },
                            set: { if $0 { days.insert(day) } else { days.remove(day) } }))
                }
                Toggle("Also by mail", isOn: $email)
                Button("Save the reminder") {
                    Task { await save() }
                }
                .disabled(days.isEmpty)
                ForEach(viewModel.browsers) { browser in
                    LabeledContent(
                        browser.maker, value: "Notified since \(browser.since.formatted(date: .abbreviated, time: .omitted))"
                    )
                    .swipeActions {
                        Button("Stop", role: .destructive) {
                            Task { await viewModel.stopNotifying(browser) }
                        }
                    }
                }
            }
            if let message = viewModel.errorMessage {
                Text(message.localizedForDisplay)
                    .foregroundStyle(.red)
            }
        } header: {
            Text("Daily reminder")
        } footer: {
            Text("A nudge at the time you choose, on a day with no entry yet. By mail it goes to your confirmed address only.")
        }
        .task {
            await viewModel.load()
            await viewModel.loadBrowsers()
            guard let reminder = viewModel.reminder else { return }
            isOn = true
            time = Calendar.current.date(from: DateComponents(hour: reminder.hour, minute: reminder.minute)) ?? time
            days = reminder.days
            email = reminder.email
            await ReminderNotifications.plan(viewModel.notificationTimes(now: Date()))
        }
    }

    private func save() async {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: time)
        guard await viewModel.save(hour: parts.hour ?? 21, minute: parts.minute ?? 0, days: days, email: email) else { return }
        await ReminderNotifications.plan(viewModel.notificationTimes(now: Date()))
    }
}
