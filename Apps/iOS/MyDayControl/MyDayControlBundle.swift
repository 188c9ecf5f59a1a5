import SwiftUI
import WidgetKit

/// The widget extension's entry point: the Record control, the streak and On this day widgets, and the recording's
/// Live Activity.
@main
struct MyDayControlBundle: WidgetBundle {
    var body: some Widget {
        RecordControl()
        StreakWidget()
        OnThisDayWidget()
        RecordingActivityWidget()
    }
}
