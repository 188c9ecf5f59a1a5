import MyDayKit
import Testing

@MainActor
@Suite struct AppLockTests {
    let start = ContinuousClock.now

    @Test func anAppWithTheLockOnOpensLockedAndStaysOpenForShortAbsences() {
        // Given the lock on, after 5 minutes
        let lock = AppLock(isEnabled: true, delay: .fiveMinutes)
        // Then the diary opens locked
        #expect(lock.isLocked)
        lock.unlocked()
        #expect(!lock.isLocked)
        // When the app is away for 4 minutes 59 seconds, it is still open
        lock.appLeft(at: start)
        lock.appReturned(at: start + .seconds(299))
        #expect(!lock.isLocked)
        // And away for 5 minutes, it locks
        lock.appLeft(at: start + .seconds(400))
        lock.appReturned(at: start + .seconds(700))
        #expect(lock.isLocked)
    }

    @Test func withNoDelayItLocksAsTheAppLeaves() {
        let lock = AppLock(isEnabled: true, delay: .immediately)
        lock.unlocked()
        lock.appLeft(at: start)
        // Locked before the app switcher takes its picture, and still locked on return
        #expect(lock.isLocked)
        lock.appReturned(at: start + .milliseconds(10))
        #expect(lock.isLocked)
    }

    @Test func anAbsenceCountsFromWhenTheUnlockedAppFirstLeft() {
        // Given a locked app that is opened and left twice without being unlocked in between
        let lock = AppLock(isEnabled: true, delay: .oneMinute)
        lock.unlocked()
        lock.appLeft(at: start)
        lock.appReturned(at: start + .seconds(70))
        #expect(lock.isLocked)
        lock.appLeft(at: start + .seconds(71))
        lock.appReturned(at: start + .seconds(72))
        // Then it stays locked (a short visit to the lock screen starts no new absence)
        #expect(lock.isLocked)
    }

    @Test func turnedOffItUnlocksAndNeverLocks() {
        let lock = AppLock(isEnabled: true, delay: .oneMinute)
        lock.isEnabled = false
        #expect(!lock.isLocked)
        lock.appLeft(at: start)
        lock.appReturned(at: start + .seconds(3600))
        #expect(!lock.isLocked)
        // Turned on again, it locks only after the next absence
        lock.isEnabled = true
        #expect(!lock.isLocked)
        lock.appLeft(at: start + .seconds(3600))
        lock.appReturned(at: start + .seconds(3700))
        #expect(lock.isLocked)
    }

    @Test func anUnknownStoredDelayReadsAsTheDefault() {
        #expect(AppLock.Delay(storedValue: nil) == .oneMinute)
        #expect(AppLock.Delay(storedValue: 42) == .oneMinute)
        #expect(AppLock.Delay(storedValue: 900) == .fifteenMinutes)
    }
}
