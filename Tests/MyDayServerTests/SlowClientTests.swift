import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// Slow or half-open clients cannot hold the server: unfinished headers and stalled bodies are closed, one address
/// holds a bounded number of connections, and one account's slow bodies never take every slot for large bodies.
@Suite struct SlowClientTests {
    /// Waits until the server has closed `connection`.
    private func awaitClosed(_ connection: RawHTTP, _ what: String) async throws {
        try await pollUntil(what, deadline: .seconds(60), every: .milliseconds(50)) { connection.isClosedByServer() }
    }

    @Test func unfinishedHeadersAndStalledBodiesAreClosed() async throws {
        let server = try await TestServer.make(.sqlite) {
            $0.connectionLimits.idle = .seconds(1)
            $0.connectionLimits.bodyStall = .seconds(1)
        }
        try await server.run { api in
            // Given a request whose headers never end, and one whose body stops after ten bytes
            let headers = try RawHTTP.open(port: api.port)
            defer { headers.close() }
            try headers.send(Data("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8))
            let body = try RawHTTP.open(port: api.port)
            defer { body.close() }
            try body.send(
                Data(
                    "POST /v1/auth/email/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"email\":"
                        .utf8))
            // Then the server closes both, and goes on answering others
            try await awaitClosed(headers, "the server closed a connection whose headers never ended")
            try await awaitClosed(body, "the server closed a connection whose body stalled")
            let port = api.port
            let health = try await onDedicatedThread {
                try RawHTTP.exchange(
                    port: port, from: "127.0.0.1", head: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                    body: Data())
            }
            #expect(health.status == 200)
        }
    }

    @Test func oneAddressHoldsABoundedNumberOfConnections() async throws {
        let server = try await TestServer.make(.sqlite) { $0.connectionsPerAddress = 4 }
        try await server.run { api in
            // Given ten idle connections from one address
            let connections = try (0..<10).map { _ in try RawHTTP.open(port: api.port, from: "127.0.0.7") }
            defer { for connection in connections { connection.close() } }
            // Then all but four are closed at once
            try await pollUntil("six connections refused", every: .milliseconds(50)) {
                connections.filter { $0.isClosedByServer() }.count == 6
            }
            // And one that was kept still works, as does another address
            let kept = try #require(connections.first { !$0.isClosedByServer() })
            try kept.send(Data("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            let answer = try await onDedicatedThread { kept.readAll() }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(try await api.send(.get, "/healthz").status == .ok)
        }
    }

    @Test func oneAccountsSlowBodiesLeaveRoomForEveryoneElse() async throws {
        let server = try await TestServer.make(.sqlite) { $0.connectionLimits.bodyStall = .seconds(120) }
        try await server.run { api in
            let slow = try await api.register()
            let other = try await api.register()
            let id = UUID().uuidString.lowercased()
            try await api.send(
                .post, "/v1/entries", token: other.accessToken,
                json: ["id": id, "created_at": "2026-05-01T08:30:00Z", "tz": "UTC", "kind": "text", "text": "A day."],
                expecting: .created)
            // Given one account sending four large bodies that stop half way
            var trickles: [RawHTTP] = []
            defer { for connection in trickles { connection.close() } }
            for _ in 0..<4 {
                let connection = try RawHTTP.open(port: api.port)
                try connection.send(
                    Data(
                        ("PATCH /v1/entries/\(UUID().uuidString.lowercased()) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Authorization: Bearer \(slow.accessToken)\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 92000\r\n\r\n{\"text\":\"" + String(repeating: "a", count: 40_000)).utf8))
                trickles.append(connection)
            }
            // Then beyond its share of two the account is told to wait
            try await pollUntil("the account's extra bodies were refused", every: .milliseconds(50)) {
                trickles.filter { $0.hasHeardFromServer() }.count == 2
            }
            // And another person's 90 KB edit goes through while the slow bodies are still held
            let edit = try await api.send(
                .patch, "/v1/entries/\(id)", token: other.accessToken, json: ["text": String(repeating: "b", count: 90_000)])
            #expect(edit.status == .ok, "\(edit.status)")
            #expect(trickles.filter { $0.hasHeardFromServer() }.count == 2)
        }
    }
}
