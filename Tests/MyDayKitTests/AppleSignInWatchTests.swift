import Foundation
import Synchronization
import Testing

@testable import MyDayKit

@Suite struct AppleSignInWatchTests {
    /// What the watch asked and did.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    let file = Given.folder().appendingPathComponent("apple-user-id")

    private func watch(answering state: AppleIDCredentialState, _ log: Log) -> AppleSignInWatch {
        AppleSignInWatch(
            file: file,
            state: { userID in
                log.add("asked about \(userID)")
                return state
            }, endSession: { log.add("session ended") })
    }

    @Test(arguments: [AppleIDCredentialState.revoked, .notFound, .transferred])
    func aSessionOfAnAppleIDThatNoLongerSignsInEnds(_ state: AppleIDCredentialState) async throws {
        // Given a session begun with Sign in with Apple
        let log = Log()
        let watch = watch(answering: state, log)
        try await watch.signedIn(appleUserID: "001234.abcd")
        // When its state is checked, then the session ends, once
        #expect(await watch.check())
        #expect(await !watch.check())
        #expect(log.all == ["asked about 001234.abcd", "session ended"])
    }

    @Test func anAuthorizedAppleIDOrAnotherSignInKeepsTheSession() async throws {
        let log = Log()
        let authorized = watch(answering: .authorized, log)
        try await authorized.signedIn(appleUserID: "001234.abcd")
        #expect(await !authorized.check())
        // A session begun with a password is never asked about; nor one signed out
        let revoked = watch(answering: .revoked, log)
        try await revoked.signedIn(appleUserID: nil)
        #expect(await !revoked.check())
        try await revoked.signedIn(appleUserID: "001234.abcd")
        await revoked.signedOut()
        #expect(await !revoked.check())
        #expect(log.all == ["asked about 001234.abcd"])
    }
}
