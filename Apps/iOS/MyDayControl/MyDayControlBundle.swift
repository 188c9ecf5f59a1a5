import SwiftUI
import WidgetKit

/// The widget extension's entry point: the Record control, and the streak widget.
@main
struct MyDayControlBundle: WidgetBundle {
    var body: some Widget {
        RecordControl()
        StreakWidget()
    }
}
