import ActivityKit
import MyDayKit
import SwiftUI
import WidgetKit

/// The recording's Live Activity: the time (ticking while recording, standing while paused), what is happening, and
/// Pause or Resume and Stop, on the Lock Screen and in the Dynamic Island.
struct RecordingActivityWidget: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: RecordingActivityAttributes.self) { context in
            RecordingActivityView(content: context.state)
                .padding()
                .activityBackgroundTint(Color(.systemBackground))
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Label("My Day", systemImage: context.state.isCounting ? "mic.fill" : "pause.fill")
                }
                DynamicIslandExpandedRegion(.trailing) {
                    RecordingTime(content: context.state).font(.title3.monospacedDigit())
                }
                DynamicIslandExpandedRegion(.bottom) {
                    RecordingActivityButtons(content: context.state)
                }
            } compactLeading: {
                Image(systemName: context.state.isCounting ? "mic.fill" : "pause.fill")
                    .foregroundStyle(context.state.isCounting ? .red : .orange)
            } compactTrailing: {
                RecordingTime(content: context.state).monospacedDigit().frame(maxWidth: 52)
            } minimal: {
                Image(systemName: context.state.isCounting ? "mic.fill" : "pause.fill")
            }
        }
    }
}

/// The Lock Screen's banner.
struct RecordingActivityView: View {
    let content: RecordingActivityContent

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack {
                Label(content.status, systemImage: content.isCounting ? "mic.fill" : "pause.fill")
                    .font(.headline)
                Spacer()
                RecordingTime(content: content).font(.title2.monospacedDigit())
            }
            RecordingActivityButtons(content: content)
        }
    }
}

/// The recorded time: a clock the system ticks while recording, the time as it stands while paused.
struct RecordingTime: View {
    let content: RecordingActivityContent

    var body: some View {
        if content.isCounting {
            Text(content.countingSince, style: .timer).accessibilityLabel("Recorded time")
        } else {
            Text(content.elapsedText).accessibilityLabel("Recorded time")
        }
    }
}

/// Pause or Resume, and Stop: each runs in the app, which is recording.
struct RecordingActivityButtons: View {
    let content: RecordingActivityContent

    var body: some View {
        HStack {
            Button(intent: RecordingActivityIntent(content.isCounting ? .pause : .resume)) {
                Label(content.pauseLabel, systemImage: content.isCounting ? "pause.fill" : "play.fill")
            }
            Button(intent: RecordingActivityIntent(.stop)) {
                Label("Stop", systemImage: "stop.fill")
            }
            .tint(.red)
        }
        .buttonStyle(.borderedProminent)
    }
}
