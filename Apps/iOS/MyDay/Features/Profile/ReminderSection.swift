import MyDayKit
import SwiftUI

/// "Daily reminder": on or off, its time and days, and whether it also comes by mail; planned on this iPhone as local
/// notifications, skipped on a day that already has an entry. The browsers it also goes to (turned on in the web app)
/// are listed, each stopped with a swipe.
struct ReminderSection: View {
    @State var viewModel: ReminderViewModel

    var body: some View {
        Section {
            Toggle("Remind me", isOn: $viewModel.isOn)
                .onChange(of: viewModel.isOn) { Task { await viewModel.switchTurned() } }
            if viewModel.isOn {
                DatePicker("At", selection: $viewModel.time, displayedComponents: .hourAndMinute)
                if let zone = viewModel.otherTimeZone {
                    Text(
                        "At this time in \(zone); this iPhone is in \(TimeZone.current.identifier). Save the reminder to use this iPhone's time zone."
                    )
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                }
                ForEach(ReminderSettings.Weekday.allCases, id: \.self) { day in
                    Toggle(
                        day.name,
                        isOn: Binding(
                            get: { viewModel.days.contains(day) },
                            set: { if $0 { viewModel.days.insert(day) } else { viewModel.days.remove(day) } }))
                }
                Toggle("Also by mail", isOn: $viewModel.email)
                Button("Save the reminder") {
                    Task { await viewModel.saveForm() }
                }
                .disabled(viewModel.days.isEmpty)
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
        .task { await viewModel.open() }
    }
}
