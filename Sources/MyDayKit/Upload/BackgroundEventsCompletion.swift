import Foundation

/// The completion handler iOS hands over when it relaunches the app for a background session's events. iOS keeps the
/// app running only until it is called, and launches an app that holds it too long less often: it is called once the
/// session has delivered its events and a short follow-up (bringing the finished uploads' entries in) has run, or
/// when that follow-up takes longer than `limit`. The session may finish delivering before the handler arrives (the
/// session is made at launch, the handler comes later): the follow-up then runs when the handler arrives.
@MainActor
public final class BackgroundEventsCompletion {
    private let followUp: @MainActor () async -> Void
    private let limit: Duration
    private let sleep: @Sendable (Duration) async -> Void
    private var handler: (@MainActor () -> Void)?
    private var delivered = false

    /// - Parameters:
    ///   - followUp: What runs between the events and the handler, such as completing the uploads that finished.
    ///   - limit: The longest the handler waits for `followUp`.
    ///   - sleep: Waits a duration (tests pass one that returns when they say).
    public init(
        followUp: @escaping @MainActor () async -> Void, limit: Duration = .seconds(5),
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.followUp = followUp
        self.limit = limit
        self.sleep = sleep
    }

    /// iOS handed over its handler (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`).
    public func received(_ handler: @escaping @MainActor () -> Void) async {
        if delivered {
            // The events came first: nothing more will arrive for this handler to wait for but the same follow-up.
            delivered = false
            await firstOf(followUp, { [sleep, limit] in await sleep(limit) })
            handler()
        } else {
            self.handler?()
            self.handler = handler
        }
    }

    /// The session delivered every event it held (`urlSessionDidFinishEvents(forBackgroundURLSession:)`).
    public func eventsDelivered() async {
        guard let handler else {
            delivered = true
            return
        }
        self.handler = nil
        await firstOf(followUp, { [sleep, limit] in await sleep(limit) })
        handler()
    }

    /// Returns when `one` or `other` has finished; the other goes on unawaited (a follow-up cut short is finished by
    /// the next launch's work).
    private func firstOf(_ one: @escaping @MainActor () async -> Void, _ other: @escaping @Sendable () async -> Void) async {
        let finished = FirstFinished()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            finished.continuation = continuation
            Task { @MainActor in
                await one()
                finished.resume()
            }
            Task { @MainActor in
                await other()
                finished.resume()
            }
        }
    }
}

/// Resumes its continuation once, for whichever of several tasks gets there first.
@MainActor
private final class FirstFinished {
    var continuation: CheckedContinuation<Void, Never>?

    func resume() {
        continuation?.resume()
        continuation = nil
    }
}
