import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@MainActor
@Suite struct SignInAttemptTests {
    @Test func aRefusalIsSaidInTheServersWordsAndTheFormCanBeSentAgain() async {
        // Given a sign-in the server refuses
        let attempt = SignInAttempt()
        await attempt.perform {
            throw MyDayClientError.server(
                status: 401, code: "wrong_credentials", message: "The email or password is wrong.", retryAfter: nil)
        }
        // Then its sentence shows, and the form can be sent again
        #expect(attempt.errorMessage == "The email or password is wrong.")
        #expect(!attempt.isWorking && attempt.canSubmit(email: "sam@example.com", password: "secret"))
    }

    @Test func noServerAndACancelledSheetAreToldApart() async {
        let attempt = SignInAttempt()
        // When the server cannot be reached, then the person is told where to look
        await attempt.perform { throw URLError(.cannotConnectToHost) }
        #expect(attempt.errorMessage == "Could not reach the server. Check the address under Your server.")
        // When the person closed a provider's sheet, then the last error goes and nothing is said
        await attempt.perform { throw CancellationError() }
        #expect(attempt.errorMessage == nil)
        // And a provider that confirmed nobody says so
        await attempt.perform { throw GoogleSignInFailure.noIDToken }
        #expect(attempt.errorMessage == "Google did not confirm who you are. Try again, or sign in another way.")
    }

    @Test func aSecondTapWhileOneRunsDoesNothing() async throws {
        // Given an attempt under way
        let attempt = SignInAttempt()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        var runs = 0
        attempt.run {
            runs += 1
            for await _ in gate { return }
        }
        try await pollUntil("the first attempt runs") { runs == 1 }
        // Then the form cannot be sent, and a second tap starts nothing
        #expect(attempt.isWorking && !attempt.canSubmit(email: "sam@example.com", password: "secret"))
        attempt.run { runs += 1 }
        open.yield()
        try await pollUntil("the attempt ended") { !attempt.isWorking }
        #expect(runs == 1 && attempt.errorMessage == nil)
    }

    @Test func aFormNeedsAnAddressAndAPasswordAndANewPasswordEightCharacters() {
        let attempt = SignInAttempt()
        #expect(!attempt.canSubmit(email: "   ", password: "secret"))
        #expect(!attempt.canSubmit(email: "sam@example.com", password: ""))
        #expect(SignInAttempt.isLongEnough(newPassword: "12345678"))
        #expect(!SignInAttempt.isLongEnough(newPassword: " 1234567 "))
    }
}

@MainActor
@Suite struct DiaryLaunchTests {
    final class Model {}

    /// Whether the test's disk is full.
    @MainActor final class Disk {
        var full = true
    }

    @Test func aDiaryThatCannotOpenSaysWhyAndOpensWhenTriedAgain() {
        // Given a disk that is full at launch
        let disk = Disk()
        let launch = DiaryLaunch<Model> {
            if disk.full { throw CocoaError(.fileWriteOutOfSpace) }
            return Model()
        }
        // Then the reason shows, and no model
        #expect(launch.model == nil)
        #expect(launch.problem?.reason == .outOfSpace)
        // When the person freed space and tries again, then the diary opens
        disk.full = false
        launch.tryAgain()
        #expect(launch.model != nil && launch.problem == nil)
        // And trying again once open keeps the same model
        let opened = launch.model
        launch.tryAgain()
        #expect(launch.model === opened)
    }
}

@MainActor
@Suite struct DefaultsHintStoreTests {
    @Test func theHintIsShownOnceOnADevice() throws {
        let defaults = try #require(UserDefaults(suiteName: "myday-hint-\(UUID().uuidString)"))
        #expect(!DefaultsHintStore(defaults: defaults).hasShownStopHint)
        DefaultsHintStore(defaults: defaults).markStopHintShown()
        #expect(DefaultsHintStore(defaults: defaults).hasShownStopHint)
    }
}
