import Foundation
import HTTPTypes
import Hummingbird
import Prometheus

/// Counts requests and times them per method, route pattern and status; logs one line per request.
/// Paths are recorded as route patterns (`/v1/entries/{id}`), never with ids or query strings.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let registry: PrometheusCollectorRegistry

    static var requests: MetricNameDescriptor {
        .init(
            namespace: "myday", subsystem: "http", metricName: "requests", unitName: "total", helpText: "HTTP requests answered")
    }
    static var duration: MetricNameDescriptor {
        .init(
            namespace: "myday", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "Time from request to response head")
    }
    static var buckets: [Duration] {
        [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let route = context.endpointPath ?? "unmatched"
        let method = request.method.rawValue
        let status = String(response.status.code)
        registry.makeCounter(descriptor: Self.requests, labels: [("method", method), ("route", route), ("status", status)])
            .increment()
        registry.makeDurationHistogram(
            descriptor: Self.duration, labels: [("method", method), ("route", route)], buckets: Self.buckets
        )
        .recordNanoseconds(elapsed.nanoseconds)
        if let requestID = context.logger[metadataKey: "hb.request.id"] {
            response.headers[.requestID] = "\(requestID)"
        }
        context.logger.info(
            "request",
            metadata: [
                "method": "\(method)", "route": "\(route)", "status": "\(status)", "ms": "\(elapsed.milliseconds)",
            ])
        return response
    }
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
}
