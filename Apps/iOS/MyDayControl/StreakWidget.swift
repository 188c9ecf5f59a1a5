import MyDayKit
import SwiftUI
import WidgetKit

/// The streak widget, on the Home Screen and the Lock Screen: how many days in a row have an entry, and (on the Home
/// Screen) a button that opens My Day recording. The app saves the streak after each refresh (`DiaryStreak`).
struct StreakWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: WidgetShelf.streakKind, provider: StreakTimeline()) { moment in
            StreakWidgetView(moment: moment)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Streak")
        .description("Days in a row with an entry, and a button to record.")
        .supportedFamilies([.systemSmall, .accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

/// The streak as shown at one moment.
struct StreakMoment: TimelineEntry {
    let date: Date
    let shown: DiaryStreak.Shown
}

/// Now, and again at midnight, when today becomes yesterday and a missed day ends the run.
struct StreakTimeline: TimelineProvider {
    func placeholder(in context: Context) -> StreakMoment {
        StreakMoment(date: Date(), shown: DiaryStreak.Shown(days: 3, todayHasEntry: true))
    }

    func getSnapshot(in context: Context, completion: @escaping (StreakMoment) -> Void) {
        completion(moment(at: Date()))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<StreakMoment>) -> Void) {
        completion(.nowAndAfterMidnight(moment(at:)))
    }

    private func moment(at date: Date) -> StreakMoment {
        let saved = RecordingControlBridge.sharedDefaults.flatMap { DiaryStreak.saved(in: $0) }
        return StreakMoment(date: date, shown: (saved ?? DiaryStreak(days: 0, lastDay: nil)).shown(at: date))
    }
}

struct StreakWidgetView: View {
    @Environment(\.widgetFamily) private var family
    let moment: StreakMoment

    var body: some View {
        switch family {
        case .accessoryInline:
            Label(daysText, systemImage: "flame")
        case .accessoryCircular:
            VStack(spacing: 0) {
                Image(systemName: "flame")
                Text("\(moment.shown.days)").font(.title3.bold())
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(Text(daysText))
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Text(daysText).font(.headline)
                Text(todayText)
            }
        default:
            VStack(alignment: .leading, spacing: 6) {
                Text(daysText).font(.headline)
                Text(todayText).font(.caption).foregroundStyle(.secondary)
                Spacer(minLength: 0)
                Button(intent: ToggleRecordingIntent()) {
                    Label("Record", systemImage: "mic.fill")
                }
                .buttonStyle(.borderedProminent)
            }
        }
    }

    private var daysText: String {
        moment.shown.days == 1 ? String(localized: "1 day in a row") : String(localized: "\(moment.shown.days) days in a row")
    }

    private var todayText: String {
        moment.shown.todayHasEntry ? String(localized: "Today is in.") : String(localized: "Nothing yet today.")
    }
}
