import Foundation
import XCTest

/// The built app's Info.plist, with its build settings resolved: what iOS reads at install and at launch.
final class InfoPlistTests: XCTestCase {
    private func value(_ key: String) -> Any? {
        Bundle.main.object(forInfoDictionaryKey: key)
    }

    func testMicrophoneUsageDescriptionIsExact() {
        XCTAssertEqual(value("NSMicrophoneUsageDescription") as? String, "My Day records audio to create your diary.")
    }

    func testSpeechRecognitionUsageDescriptionIsPresent() {
        XCTAssertFalse((value("NSSpeechRecognitionUsageDescription") as? String ?? "").isEmpty)
    }

    func testBackgroundModesCoverRecordingAndUploads() {
        let modes = Set(value("UIBackgroundModes") as? [String] ?? [])
        XCTAssertTrue(modes.isSuperset(of: ["audio", "fetch", "processing"]), "UIBackgroundModes: \(modes.sorted())")
    }

    func testBackgroundTaskIdentifiersAreTheBundleIdentifierWithRefreshAndSending() throws {
        let bundleID = try XCTUnwrap(Bundle.main.bundleIdentifier)
        XCTAssertEqual(
            value("BGTaskSchedulerPermittedIdentifiers") as? [String], [bundleID + ".refresh", bundleID + ".sending"])
    }

    func testAppGroupAndServerAreResolvedFromBuildSettings() throws {
        let bundleID = try XCTUnwrap(Bundle.main.bundleIdentifier)
        XCTAssertEqual(value("MyDayAppGroup") as? String, "group." + bundleID)
        let server = try XCTUnwrap(value("MyDayServerURL") as? String)
        XCTAssertNotNil(URL(string: server)?.host, "MyDayServerURL is not a URL: \(server)")
    }

    func testDisplayNameIsMyDay() {
        XCTAssertEqual(value("CFBundleDisplayName") as? String, "My Day")
    }
}
