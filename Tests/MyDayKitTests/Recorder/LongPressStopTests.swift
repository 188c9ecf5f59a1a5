import Foundation
import MyDayKit
import Testing

@Suite("LongPressStop")
struct LongPressStopTests {
    @Test func progressGrowsOverTheHoldDuration() {
        // Given a press that began at 10 s
        var press = LongPressStop(holdDuration: 3)
        press.began(at: 10)

        // Then progress runs linearly from 0 to 1 over 3 s and stays at 1
        #expect(press.progress(at: 10) == 0)
        #expect(press.progress(at: 11.5) == 0.5)
        #expect(press.progress(at: 13) == 1)
        #expect(press.progress(at: 20) == 1)
    }

    @Test func completesAtTheHoldDuration() {
        // Given a press that began at 10 s
        var press = LongPressStop(holdDuration: 3)
        press.began(at: 10)

        // Then it is complete from 13 s on, not before
        #expect(!press.isComplete(at: 12.99))
        #expect(press.isComplete(at: 13))
    }

    @Test func shortReleaseIsATap() {
        // Given a press that began at 10 s
        var press = LongPressStop(holdDuration: 3, tapThreshold: 0.3)
        press.began(at: 10)

        // When it is released after 0.1 s
        let release = press.release(at: 10.1)

        // Then it is a tap and the press is over
        #expect(release == .tap)
        #expect(!press.isPressed)
    }

    @Test func earlyReleaseCancelsAndResetsProgress() {
        // Given a press held for 1.5 s
        var press = LongPressStop(holdDuration: 3, tapThreshold: 0.3)
        press.began(at: 10)

        // When it is released
        let release = press.release(at: 11.5)

        // Then it is cancelled and progress is back to 0
        #expect(release == .cancelled)
        #expect(press.progress(at: 11.5) == 0)
        #expect(!press.isComplete(at: 20))
    }

    @Test func releaseAfterTheHoldDurationIsComplete() {
        // Given a press held for 3.2 s without anyone checking completion
        var press = LongPressStop(holdDuration: 3)
        press.began(at: 10)

        // When it is released
        let release = press.release(at: 13.2)

        // Then the hold counts as completed
        #expect(release == .completed)
    }

    @Test func releaseWithoutPressOrAfterCancelDoesNothing() {
        // Given a press that was cancelled
        var press = LongPressStop()
        press.began(at: 10)
        press.cancel()

        // When it is released, and released again
        let first = press.release(at: 10.1)
        let second = press.release(at: 10.2)

        // Then neither release means anything
        #expect(first == .cancelled)
        #expect(second == .cancelled)
        #expect(press.progress(at: 12) == 0)
    }
}
