import Foundation
import XCTest

/// Localizable.xcstrings is compiled into the app, so its screens, and MyDayKit's English words, speak from the catalog.
final class LocalizationTests: XCTestCase {
    func testStringCatalogIsCompiledIntoTheApp() {
        let tables = ["strings", "stringsdict"].compactMap { Bundle.main.url(forResource: "Localizable", withExtension: $0) }
        XCTAssertFalse(tables.isEmpty, "no compiled Localizable table in \(Bundle.main.bundlePath)")
    }

    /// "Record" is the record button's name from MyDayKit (`HomeViewModel.recordButtonLabel`), looked up at display.
    func testRecordIsInTheCatalog() {
        let absent = "\u{2400} not in the catalog"
        XCTAssertNotEqual(Bundle.main.localizedString(forKey: "Record", value: absent, table: nil), absent)
    }
}
