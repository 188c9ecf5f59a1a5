import Foundation
import GRDB
import Testing

@testable import MyDayKit

/// A diary that cannot open at launch says why and what to do.
@Suite struct DiaryUnavailableTests {
    @Test func aFullDiskSaysSoWhereverItIsNoticed() throws {
        // Given a store that cannot write its file: SQLite's own "full", a file write, and the system's ENOSPC
        let errors: [any Error] = [
            DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full"),
            CocoaError(.fileWriteOutOfSpace),
            NSError(
                domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                userInfo: [NSUnderlyingErrorKey: POSIXError(.ENOSPC) as NSError]),
            POSIXError(.ENOSPC),
        ]
        for error in errors {
            let problem = DiaryUnavailable(error)
            #expect(problem.reason == .outOfSpace, "\(error)")
            #expect(problem.title == "Your iPhone is full")
            #expect(problem.message.contains("iPhone Storage") && problem.message.contains("Try again"))
        }
    }

    @Test func aLockedOrDamagedDiaryAndAnythingElseEachSayWhatToDo() {
        #expect(DiaryUnavailable(POSIXError(.EACCES)).reason == .locked)
        #expect(DiaryUnavailable(DatabaseError(resultCode: .SQLITE_NOTADB)).reason == .damaged)
        let other = DiaryUnavailable(POSIXError(.EIO))
        guard case .other(let detail) = other.reason else {
            Issue.record("\(other.reason)")
            return
        }
        #expect(other.message.hasSuffix(detail))
    }

    @Test func aStoreThatCannotBeOpenedIsAnsweredNotACrash() throws {
        // Given a diary file that is not a database
        let folder = Given.folder()
        let file = folder.appendingPathComponent("myday.sqlite")
        try Data(repeating: 7, count: 4096).write(to: file)
        // When the store opens it, then the error reads as a damaged diary
        let error = try #require(throws: (any Error).self) { try LocalStore(path: file.path) }
        #expect(DiaryUnavailable(error).reason == .damaged)
    }
}
