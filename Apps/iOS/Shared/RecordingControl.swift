import AppIntents
import Foundation
import WidgetKit

/// What the Record control and the app share: whether the app is recording, and how the app records on request.
enum RecordingControlBridge {
    /// The control's kind: the widget extension declares the control under it, the app reloads it by it.
    static let controlKind = "RecordControl"
    /// The App Group defaults key holding `isRecording`.
    static let isRecordingKey = "isRecording"

    /// Set by the app at launch: starts a recording (false) or stops the one under way (true). Nil in the extension.
    @MainActor static var recordingRequested: (@MainActor (_ stop: Bool) async -> Void)?

    /// Whether the app is recording, as it last said.
    static var isRecording: Bool { sharedDefaults?.bool(forKey: isRecordingKey) ?? false }

    #if !MYDAY_CONTROL_EXTENSION
        /// Records whether the app is recording and asks the system to redraw the control. Left out of the extension,
        /// which only reads the state and whose iOS 18 minimum would make the availability check a warning.
        static func setIsRecording(_ on: Bool) {
            guard let defaults = sharedDefaults, defaults.bool(forKey: isRecordingKey) != on else { return }
            defaults.set(on, forKey: isRecordingKey)
            if #available(iOS 18.0, *) {
                ControlCenter.shared.reloadControls(ofKind: controlKind)
            }
        }
    #endif

    /// The App Group's defaults, named by the Info.plist key `MyDayAppGroup` of the app and of the extension.
    static var sharedDefaults: UserDefaults? {
        guard let group = Bundle.main.object(forInfoDictionaryKey: "MyDayAppGroup") as? String, !group.isEmpty else {
            return nil
        }
        return UserDefaults(suiteName: group)
    }
}

/// Opens My Day and starts a recording, or stops the one under way: what the Record control's label showed when it
/// was tapped, so a label left over from a crash never starts a recording the person meant to stop.
struct ToggleRecordingIntent: AppIntent {
    static var title: LocalizedStringResource { "Record in My Day" }
    static var description: IntentDescription { "Starts a recording in My Day, or stops the one under way." }
    /// The recorder lives in the app, so iOS 17 and 18 open it and perform the intent there. iOS 26 reads
    /// `supportedModes` instead.
    @available(iOS, deprecated: 26.0, message: "iOS 26 reads supportedModes")
    static let openAppWhenRun = true
    /// What `openAppWhenRun` says, for iOS 26 and later, where it replaces it: the app comes to the front first.
    @available(iOS 26.0, *)
    static var supportedModes: IntentModes { .foreground }

    @Parameter(title: "Stop the recording under way", default: false)
    var stop: Bool

    init() {}

    init(stop: Bool) {
        self.stop = stop
    }

    @MainActor
    func perform() async throws -> some IntentResult {
        await RecordingControlBridge.recordingRequested?(stop)
        return .result()
    }
}

/// The Record control on the Lock Screen, in Control Center and on the Action button: starts a recording, or stops the
/// one under way, in the app's process without unlocking the iPhone or opening the app (an `AudioRecordingIntent`:
/// the app shows the recording's Live Activity at once, as the system requires). When the recording cannot start
/// there, the person is told to open My Day.
@available(iOS 18.0, *)
struct RecordWithoutUnlockingIntent: AudioRecordingIntent {
    static var title: LocalizedStringResource { "Record in My Day without unlocking" }
    static var isDiscoverable: Bool { false }

    @Parameter(title: "Stop the recording under way", default: false)
    var stop: Bool

    init() {}

    init(stop: Bool) {
        self.stop = stop
    }

    @MainActor
    func perform() async throws -> some IntentResult {
        guard let request = RecordingControlBridge.recordingRequested else { throw RecordingNotStarted() }
        await request(stop)
        if !stop, !RecordingControlBridge.isRecording { throw RecordingNotStarted() }
        return .result()
    }
}

/// What the Record control says when the iPhone did not let My Day start recording in the background.
struct RecordingNotStarted: Error, CustomLocalizedStringResourceConvertible {
    var localizedStringResource: LocalizedStringResource {
        "My Day could not start recording here. Open My Day to record."
    }
}
