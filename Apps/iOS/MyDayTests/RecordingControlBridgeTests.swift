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
    func testTheIntentAsksTheAppForWhatTheLabelShowed() async throws {
        let requests = RequestLog()
        let appsHandler = RecordingControlBridge.recordingRequested
        defer { RecordingControlBridge.recordingRequested = appsHandler }
        RecordingControlBridge.recordingRequested = { stop in requests.stops.append(stop) }

        _ = try await ToggleRecordingIntent(stop: false).perform()
        _ = try await ToggleRecordingIntent(stop: true).perform()

        XCTAssertEqual(requests.stops, [false, true])
        XCTAssertTrue(ToggleRecordingIntent.openAppWhenRun)
    }
}

/// The requests the intent passed on: `true` to stop, `false` to start.
@MainActor
private final class RequestLog {
    var stops: [Bool] = []
}
