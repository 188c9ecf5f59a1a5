import Hummingbird
import Logging
import MyDayModels
import ServiceLifecycle

/// Runs an app on a loopback port for the length of a test, with bounds HummingbirdTesting's live runner lacks: an app
/// that stops before it listens fails with its error instead of leaving the test waiting for a port forever, and one
/// that does not stop when asked is cancelled after a minute, and fails its test (`DidNotStop`) ten seconds later
/// without ending the whole test process, as ServiceGroup's own bound would.
package enum LoopbackApp {
    /// How long a stopping app has: to finish what it is doing, then to end once cancelled.
    package struct StopLimits: Sendable {
        package var graceful: Duration
        package var cancelled: Duration

        package init(graceful: Duration = .seconds(60), cancelled: Duration = .seconds(10)) {
            self.graceful = graceful
            self.cancelled = cancelled
        }
    }

    /// Builds the app with `make` (handing it the hook the app calls with its port once it listens), runs it, runs
    /// `body` with the port, then shuts the app down gracefully.
    package static func run<App: Service, T: Sendable>(
        stopLimits: StopLimits = StopLimits(),
        _ make: (_ listening: @escaping @Sendable (Int) async -> Void) async throws -> App,
        _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let app = try await make { port in announce.yield(port) }
        var lifecycle = ServiceGroupConfiguration(services: [app], logger: Logger(label: "loopback-app"))
        lifecycle.maximumGracefulShutdownDuration = stopLimits.graceful
        let services = ServiceGroup(configuration: lifecycle)
        // The app runs in a task of its own, so that one that never ends can be left behind (ServiceGroup's bound on
        // the cancellation would end the process, and every other test with it).
        let running = Task { () -> Result<Void, any Error> in
            defer { announce.finish() }
            do {
                try await services.run()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        guard let port = await ports.first(where: { _ in true }) else {
            try await running.value.get()
            throw StoppedBeforeListening()
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(port))
        } catch {
            result = .failure(error)
        }
        await services.triggerGracefulShutdown()
        let limit = stopLimits.graceful + stopLimits.cancelled
        guard let stopped = await value(of: running, within: limit) else {
            running.cancel()
            throw DidNotStop(limit: limit, testResult: "\(result)")
        }
        try stopped.get()
        return try result.get()
    }

    /// A router's app on 127.0.0.1, on a port the system picks.
    package static func run<T: Sendable>(
        _ router: Router<BasicRequestContext>, _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        try await run(
            { listening in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { channel in await listening(channel.localAddress?.port ?? 0) })
            }, body)
    }

    /// The app ended without an error before it listened.
    package struct StoppedBeforeListening: Error {}

    /// The app neither finished what it was doing nor ended once cancelled; it is left running.
    package struct DidNotStop: Error, CustomStringConvertible {
        package let limit: Duration
        /// How the test's own part ended, which a hung stop would otherwise hide.
        package let testResult: String

        package var description: String {
            "the app did not stop within \(limit) of being asked (the test's part ended with \(testResult))"
        }
    }
}
