import Foundation

/// An operation that reports through a callback (a recognizer, a system request), awaited: resumed exactly once, by
/// its result, an error or the awaiting task's cancellation, whichever comes first. Cancellation also stops the
/// operation (`attach`), even when it came before the operation started.
///
/// Sendable by hand: its variables change only under `lock` (callbacks arrive on the operation's own queue).
public final class CallbackOnce<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var stop: (() -> Void)?
    private var isCancelled = false

    public init() {}

    /// Runs `start`, which begins the operation (its callback calls `finish`), and waits for the outcome.
    public func run(_ start: () -> Void) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.withLock { self.continuation = continuation }
                start()
            }
        } onCancel: {
            cancel()
        }
    }

    /// How to stop the operation; called at once when the wait was cancelled already.
    public func attach(stop: @escaping () -> Void) {
        let cancelledEarlier = lock.withLock { () -> Bool in
            self.stop = stop
            return isCancelled
        }
        if cancelledEarlier { cancel() }
    }

    /// The operation's outcome; only the first counts.
    public func finish(_ result: Result<Value, any Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<Value, any Error>? in
            defer {
                continuation = nil
                stop = nil
            }
            return continuation
        }
        waiting?.resume(with: result)
    }

    private func cancel() {
        let running = lock.withLock { () -> (() -> Void)? in
            isCancelled = true
            return stop
        }
        running?()
        finish(.failure(CancellationError()))
    }
}

/// An action that runs for the first call only, whichever caller comes first (a background task's work or its expiry).
///
/// Sendable by hand: `action` is taken under `lock`.
public final class FirstCallOnly<Argument>: @unchecked Sendable {
    private let lock = NSLock()
    private var action: ((Argument) -> Void)?

    public init(_ action: @escaping (Argument) -> Void) {
        self.action = action
    }

    public func callAsFunction(_ argument: Argument) {
        let waiting = lock.withLock { () -> ((Argument) -> Void)? in
            defer { action = nil }
            return action
        }
        waiting?(argument)
    }
}
