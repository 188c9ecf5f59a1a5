import HummingbirdTesting
import MyDayTestSupport

extension ServerProcess {
    /// Runs `body` with a client connected to the server.
    func withClient<T: Sendable>(_ body: @escaping @Sendable (APIClient) async throws -> T) async throws -> T {
        let port = port
        return try await TestClient.withClient(host: "127.0.0.1", port: port) { connection in
            try await body(APIClient(connection: connection, port: port))
        }
    }
}
