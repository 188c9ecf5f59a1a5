import ActivityKit
import Foundation
import MyDayKit

/// Starts, updates and ends the recording's Live Activity as the recorder's state changes: it shows while a recording
/// is under way (if the person allows Live Activities) and ends, at once, when the recording is saved or fails.
@MainActor
enum RecordingLiveActivity {
    static func update(for state: RecorderState, elapsed: TimeInterval) {
        let running = Activity<RecordingActivityAttributes>.activities
        guard let content = RecordingActivityContent(state: state, elapsed: elapsed, now: Date()) else {
            for activity in running {
                Task { await activity.end(nil, dismissalPolicy: .immediate) }
            }
            return
        }
        let shown = ActivityContent(state: content, staleDate: nil)
        if let activity = running.first {
            Task { await activity.update(shown) }
        } else if ActivityAuthorizationInfo().areActivitiesEnabled {
            _ = try? Activity.request(attributes: RecordingActivityAttributes(), content: shown)
        }
    }
}
