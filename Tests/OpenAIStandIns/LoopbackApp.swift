import Hummingbird
import Logging
import ServiceLifecycle

/// Runs an app on a loopback port for the length of a test, with bounds HummingbirdTesting's live runner lacks: an app
/// that stops before it listens fails with its error instead of leaving the test waiting for a port forever, and one
/// that does not stop when asked is cancelled after a minute.
package enum LoopbackApp {
    /// Builds the app with `make` (handing it the hook the app calls with its port once it listens), runs it, runs
    /// `body` with the port, then shuts the app down gracefully.
    package static func run<App: Service, T: Sendable>(
        _ make: (_ listening: @escaping @Sendable (Int) async -> Void) async throws -> App,
        _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> T {
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let app = try await make { port in announce.yield(port) }
        var lifecycle = ServiceGroupConfiguration(services: [app], logger: Logger(label: "loopback-app"))
        lifecycle.maximumGracefulShutdownDuration = .seconds(60)
        lifecycle.maximumCancellationDuration = .seconds(10)
        let services = ServiceGroup(configuration: lifecycle)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { announce.finish() }
                try await services.run()
            }
            guard let port = await ports.first(where: { _ in true }) else {
                try await group.waitForAll()
                throw StoppedBeforeListening()
            }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(port))
            } catch {
                result = .failure(error)
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return try result.get()
        }
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
}
