import ActivityKit
import AppIntents
import MyDayKit

/// The Live Activity of a recording under way, on the Lock Screen and in the Dynamic Island: what the app and the
/// widget extension share. Its state is MyDayKit's `RecordingActivityContent`, whose rules are tested on Linux.
struct RecordingActivityAttributes: ActivityAttributes {
    typealias ContentState = RecordingActivityContent
}

/// What the Live Activity's buttons ask of the recording.
enum RecordingActivityAction: String, AppEnum {
    case pause
    case resume
    case stop

    static var typeDisplayRepresentation: TypeDisplayRepresentation { "Recording action" }
    static var caseDisplayRepresentations: [RecordingActivityAction: DisplayRepresentation] {
        [.pause: "Pause", .resume: "Resume", .stop: "Stop"]
    }
}

/// A button of the Live Activity: runs in the app's process (a `LiveActivityIntent`), which is recording, without
/// unlocking the iPhone or bringing the app to the front.
struct RecordingActivityIntent: LiveActivityIntent {
    static var title: LocalizedStringResource { "Pause, resume or stop the recording" }
    static var isDiscoverable: Bool { false }

    @Parameter(title: "Action")
    var action: RecordingActivityAction

    init() {}

    init(_ action: RecordingActivityAction) {
        self.action = action
    }

    @MainActor
    func perform() async throws -> some IntentResult {
        await RecordingActivityBridge.actionRequested?(action)
        return .result()
    }
}

/// Set by the app at launch: carries out a Live Activity button's action on the recorder. Nil in the extension.
enum RecordingActivityBridge {
    @MainActor static var actionRequested: (@MainActor (RecordingActivityAction) async -> Void)?
}
