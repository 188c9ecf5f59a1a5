import Foundation

/// A monotonic clock the test moves by hand.
final class ManualUptime: @unchecked Sendable {
    private let lock = NSLock()
    private var value: TimeInterval

    init(_ value: TimeInterval) {
        self.value = value
    }

    var current: TimeInterval {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Hands out `Fixture.id(1)`, `Fixture.id(2)`, … in order.
final class SequentialIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var issued = 0

    func next() -> UUID {
        lock.withLock {
            issued += 1
            return Fixture.id(issued)
        }
    }
}
