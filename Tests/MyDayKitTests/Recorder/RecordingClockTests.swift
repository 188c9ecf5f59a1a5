import Foundation
import MyDayKit
import Testing

@Suite("RecordingClock")
struct RecordingClockTests {
    @Test func pausedTimeIsExcluded() {
        // Given a clock started at 100 s
        var clock = RecordingClock.started(at: 100)

        // When it is paused from 110 s to 130 s
        clock.pause(at: 110)
        let whilePaused = clock.elapsed(at: 125)
        clock.resume(at: 130)

        // Then only running time counts
        #expect(whilePaused == 10)
        #expect(clock.elapsed(at: 135) == 15)
    }

    @Test func repeatedPauseAndResumeAreIgnored() {
        // Given a running clock
        var clock = RecordingClock.started(at: 0)

        // When it is resumed while running and paused while paused
        clock.resume(at: 5)
        clock.pause(at: 10)
        clock.pause(at: 20)

        // Then the first start and first pause count
        #expect(clock.elapsed(at: 30) == 10)
        #expect(!clock.isRunning)
    }

    @Test func newClockHasNoTime() {
        // Given a new clock
        let clock = RecordingClock()

        // Then it is stopped at zero
        #expect(clock.elapsed(at: 1_000) == 0)
        #expect(!clock.isRunning)
    }
}
