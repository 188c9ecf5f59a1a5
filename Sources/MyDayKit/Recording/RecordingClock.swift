import Foundation

/// Recorded time on a monotonic clock: it advances only while running, so pauses and interruptions are excluded.
public struct RecordingClock: Sendable, Equatable {
    private var accumulated: TimeInterval = 0
    private var runningSince: TimeInterval?

    public init() {}

    /// A clock that has been running since `uptime`.
    public static func started(at uptime: TimeInterval) -> RecordingClock {
        var clock = RecordingClock()
        clock.resume(at: uptime)
        return clock
    }

    public var isRunning: Bool {
        runningSince != nil
    }

    /// Does nothing when already running.
    public mutating func resume(at uptime: TimeInterval) {
        guard runningSince == nil else {
            return
        }
        runningSince = uptime
    }

    /// Does nothing when already paused.
    public mutating func pause(at uptime: TimeInterval) {
        guard let runningSince else {
            return
        }
        accumulated += max(0, uptime - runningSince)
        self.runningSince = nil
    }

    public func elapsed(at uptime: TimeInterval) -> TimeInterval {
        guard let runningSince else {
            return accumulated
        }
        return accumulated + max(0, uptime - runningSince)
    }
}
