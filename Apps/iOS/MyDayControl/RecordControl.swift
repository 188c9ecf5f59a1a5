import AppIntents
import SwiftUI
import WidgetKit

/// The Record control for Control Center, the Lock Screen and the Action button: one tap starts recording without
/// unlocking (the Live Activity shows it), a tap while recording stops it.
struct RecordControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: RecordingControlBridge.controlKind, provider: RecordingStateProvider()) { isRecording in
            ControlWidgetButton(action: RecordWithoutUnlockingIntent(stop: isRecording)) {
                Label(isRecording ? "Stop recording" : "Record", systemImage: isRecording ? "stop.fill" : "mic.fill")
            }
        }
        .displayName("Record in My Day")
        .description("Starts a recording in My Day, or stops the one under way.")
    }
}

/// Whether the app is recording, read from the App Group, so the control shows Record or Stop recording.
struct RecordingStateProvider: ControlValueProvider {
    var previewValue: Bool { false }

    func currentValue() async throws -> Bool {
        RecordingControlBridge.isRecording
    }
}
