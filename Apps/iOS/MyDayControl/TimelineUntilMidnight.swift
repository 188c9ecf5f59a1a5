import Foundation
import WidgetKit

extension Timeline {
    /// What a day's widget shows now and again just after midnight, when the day it shows changes; asked for anew then.
    static func nowAndAfterMidnight(_ moment: (Date) -> EntryType) -> Timeline<EntryType> {
        let now = Date()
        let midnight = Calendar.current.startOfDay(for: now).addingTimeInterval(86_400 + 1)
        return Timeline(entries: [moment(now), moment(midnight)], policy: .after(midnight))
    }
}
