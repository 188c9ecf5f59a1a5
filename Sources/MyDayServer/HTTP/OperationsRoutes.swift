import Foundation
import Hummingbird
import MyDayAPI
import Prometheus

/// `/healthz`, `/readyz`, `/metrics` and `/openapi.yaml`: what operators and tools read.
struct OperationsRoutes<Context: RequestContext>: Sendable {
    let driver: any DatabaseDriver
    let registry: PrometheusCollectorRegistry
    let jobs: JobQueue
    let document: Data

    func register(on router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.json(#"{"status":"ok"}"#) }
        router.get("/readyz") { _, context in
            do {
                _ = try await driver.read { db in try await db.raw("SELECT 1 AS one").first() }
                return Self.json(#"{"status":"ready"}"#)
            } catch {
                context.logger.warning("database unreachable")
                return APIError(status: .serviceUnavailable, code: "not_ready", message: "The database does not answer.")
                    .response()
            }
        }
        router.get("/metrics") { _, context in
            do {
                PipelineMetrics(registry: registry).recordJobCounts(try await jobs.counts())
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

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
