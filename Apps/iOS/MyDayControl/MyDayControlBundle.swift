import SwiftUI
import WidgetKit

/// The widget extension's entry point: My Day offers one control, Record.
@main
struct MyDayControlBundle: WidgetBundle {
    var body: some Widget {
        RecordControl()
    }
}
