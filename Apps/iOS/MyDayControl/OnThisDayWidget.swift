import MyDayKit
import SwiftUI
import WidgetKit

/// On this day, on the Home Screen: the furthest day before that has entries on today's date ("2 years ago"), with
/// its first entry's title or opening words (hidden while the iPhone is locked, and left out altogether when the app
/// is locked with Face ID). The app saves it after each refresh (`OnThisDayWidgetContent`).
struct OnThisDayWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: WidgetShelf.onThisDayKind, provider: OnThisDayTimeline()) { moment in
            OnThisDayWidgetView(memory: moment.memory)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("On this day")
        .description("What you said on this date a week, a month or years ago.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

/// The memory shown at one moment; nil when today has none.
struct OnThisDayMoment: TimelineEntry {
    let date: Date
    let memory: OnThisDayWidgetContent.Memory?
}

/// Now, and again at midnight, when today's days before stop being shown.
struct OnThisDayTimeline: TimelineProvider {
    func placeholder(in context: Context) -> OnThisDayMoment {
        OnThisDayMoment(
            date: Date(),
            memory: .init(heading: String(localized: "A year ago"), preview: nil, entryCount: 1, date: "2025-01-01"))
    }

    func getSnapshot(in context: Context, completion: @escaping (OnThisDayMoment) -> Void) {
        completion(moment(at: Date()))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<OnThisDayMoment>) -> Void) {
        completion(.nowAndAfterMidnight(moment(at:)))
    }

    private func moment(at date: Date) -> OnThisDayMoment {
        let saved = RecordingControlBridge.sharedDefaults.flatMap { OnThisDayWidgetContent.saved(in: $0) }
        return OnThisDayMoment(date: date, memory: saved?.shown(at: date))
    }
}

struct OnThisDayWidgetView: View {
    let memory: OnThisDayWidgetContent.Memory?

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            if let memory {
                Text(memory.heading).font(.headline)
                if let preview = memory.preview {
                    Text(preview).font(.callout).lineLimit(4).privacySensitive()
                }
                Spacer(minLength: 0)
                Text(memory.entryCount == 1 ? String(localized: "1 entry") : String(localized: "\(memory.entryCount) entries"))
                    .font(.caption)
                    .foregroundStyle(.secondary)
            } else {
                Text("On this day").font(.headline)
                Text("Nothing from this date before.").font(.caption).foregroundStyle(.secondary)
                Spacer(minLength: 0)
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}
