import Foundation

/// The timing of "hold to stop": a short press is a tap, a press held for `holdDuration` stops, anything between cancels.
public struct LongPressStop: Sendable, Equatable {
    /// What letting go of the press meant.
    public enum Release: Sendable, Equatable {
        /// Released before `tapThreshold`: an ordinary tap.
        case tap
        /// Released between `tapThreshold` and `holdDuration`, or no press was under way: nothing happens.
        case cancelled
        /// Held for at least `holdDuration`, even if no one checked `isComplete(at:)` in time.
        case completed
    }

    public let holdDuration: TimeInterval
    public let tapThreshold: TimeInterval
    public private(set) var pressedAt: TimeInterval?

    public init(holdDuration: TimeInterval = 3, tapThreshold: TimeInterval = 0.3) {
        precondition(holdDuration > 0, "holdDuration must be positive")
        precondition(tapThreshold >= 0 && tapThreshold < holdDuration, "tapThreshold must be in 0..<holdDuration")
        self.holdDuration = holdDuration
        self.tapThreshold = tapThreshold
    }

    public var isPressed: Bool {
        pressedAt != nil
    }

    public mutating func began(at uptime: TimeInterval) {
        pressedAt = uptime
    }

    /// How far the hold has got, 0…1; 0 when no press is under way.
    public func progress(at uptime: TimeInterval) -> Double {
        guard let pressedAt else {
            return 0
        }
        return min(max((uptime - pressedAt) / holdDuration, 0), 1)
    }

    public func isComplete(at uptime: TimeInterval) -> Bool {
        guard let pressedAt else {
            return false
        }
        return uptime - pressedAt >= holdDuration
    }

    public mutating func release(at uptime: TimeInterval) -> Release {
        guard let pressedAt else {
            return .cancelled
        }
        self.pressedAt = nil
        let heldFor = uptime - pressedAt
        if heldFor < tapThreshold {
            return .tap
        }
        return heldFor >= holdDuration ? .completed : .cancelled
    }

    /// Forgets the press, e.g. once the hold has stopped the recording, so the later release does nothing.
    public mutating func cancel() {
        pressedAt = nil
    }
}
