import Foundation
import Hummingbird
import MyDayAPI
import Prometheus

/// `/healthz`, `/readyz`, `/metrics` and `/openapi.yaml`: what operators and tools read.
struct OperationsRoutes<Context: RequestContext>: Sendable {
    let driver: any DatabaseDriver
    let registry: PrometheusCollectorRegistry
    let jobs: JobQueue
    /// The engine this process transcribes with; nil on an API-only node.
    let speech: SpeechEngine?
    let document: Data
    /// The bearer token `/metrics` asks for; nil leaves it open (bind the server to a private address then).
    let metricsToken: String?

    func register(on router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.json(#"{"status":"ok"}"#) }
        router.get("/readyz") { _, context in
            do {
                _ = try await driver.read { db in try await db.raw("SELECT 1 AS one").first() }
                var answer: [String: Any] = ["status": "ready"]
                if let speech {
                    let status = await speech.status()
                    answer["speech"] = ["engine": status.engine, "model": status.model, "state": status.state]
                }
                return Self.json(String(decoding: try JSONSerialization.data(withJSONObject: answer), as: UTF8.self))
            } catch {
                context.logger.warning("database unreachable")
                return APIError(status: .serviceUnavailable, code: "not_ready", message: "The database does not answer.")
                    .response()
            }
        }
        router.get("/metrics") { request, context in
            if let metricsToken, !Self.carries(metricsToken, request) {
                return APIError(status: .unauthorized, code: "unauthorized", message: "Send the metrics token.").response()
            }
            do {
                let metrics = PipelineMetrics(registry: registry)
                if let speech { metrics.recordSpeechEngine(await speech.status()) }
                metrics.recordJobCounts(try await jobs.counts())
            } catch {
                context.logger.warning("job counts unavailable for metrics")
            }
            var output: [UInt8] = []
            registry.emit(into: &output)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: output)))
        }
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(data: document)))
        }
    }

    /// Whether the request's `Authorization` is `Bearer` and `token`, compared in constant time.
    private static func carries(_ token: String, _ request: Request) -> Bool {
        guard let credential = BearerCredential.token(in: request.headers[.authorization]) else { return false }
        let sent = Array(credential.utf8)
        let expected = Array(token.utf8)
        guard sent.count == expected.count else { return false }
        return zip(sent, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
