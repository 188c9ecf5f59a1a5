import Foundation
import XCTest

/// The state the Record control reads lives in the App Group, and the control's intent reaches the app's recorder.
///
/// `Shared/RecordingControl.swift` is compiled into these tests, as into the app and the extension; the tests run
/// inside the app, so they read its Info.plist and its App Group.
final class RecordingControlBridgeTests: XCTestCase {
    func testIsRecordingRoundTripsThroughTheAppGroup() throws {
        let bundleID = try XCTUnwrap(Bundle.main.bundleIdentifier)
        let group = try XCTUnwrap(UserDefaults(suiteName: "group." + bundleID))
        let before = RecordingControlBridge.isRecording
        defer { RecordingControlBridge.setIsRecording(before) }

        RecordingControlBridge.setIsRecording(true)
        XCTAssertTrue(RecordingControlBridge.isRecording)
        XCTAssertTrue(group.bool(forKey: RecordingControlBridge.isRecordingKey))

        RecordingControlBridge.setIsRecording(false)
        XCTAssertFalse(RecordingControlBridge.isRecording)
        XCTAssertFalse(group.bool(forKey: RecordingControlBridge.isRecordingKey))
    }

    @MainActor
    func testIntentCallsTheAppsToggleOnce() async throws {
        let taps = TapCounter()
        let appsToggle = RecordingControlBridge.toggleRecording
        defer { RecordingControlBridge.toggleRecording = appsToggle }
        RecordingControlBridge.toggleRecording = { taps.count += 1 }

        _ = try await ToggleRecordingIntent().perform()

        XCTAssertEqual(taps.count, 1)
        XCTAssertTrue(ToggleRecordingIntent.openAppWhenRun)
    }
}

/// Counts the toggles the intent asks for.
@MainActor
private final class TapCounter {
    var count = 0
}
