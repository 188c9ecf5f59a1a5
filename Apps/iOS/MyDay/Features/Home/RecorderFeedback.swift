import MyDayKit
import SwiftUI

/// The haptic that goes with a change of the recorder's state.
enum RecorderFeedback {
    /// A firm tap on start, a light one on pause and resume, success when saved, an error when it failed.
    ///
    /// `SensoryFeedback.start` plays on watchOS only, so the start is an impact on the iPhone.
    static func haptic(from old: RecorderState, to new: RecorderState) -> SensoryFeedback? {
        switch (old, new) {
        case (_, .saved):
            .success
        case (_, .failed):
            .error
        case (.recording, .paused), (.recording, .interrupted), (.paused, .recording), (.interrupted, .recording):
            .impact(weight: .light)
        case (_, .recording):
            .impact(weight: .heavy)
        default:
            nil
        }
    }
}
