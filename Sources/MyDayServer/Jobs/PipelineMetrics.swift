import Prometheus

/// Prometheus figures of the background work: jobs per state, and how long each transcription stage took.
/// Counts and durations only, never content.
struct PipelineMetrics: Sendable {
    let registry: PrometheusCollectorRegistry

    /// Stage names: `decode`, `recognize`, `clean`.
    func recordStage(_ stage: String, _ duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: .init(
                namespace: "myday", subsystem: "transcription", metricName: "stage_duration", unitName: "seconds",
                helpText: "Time each transcription stage took per entry"),
            labels: [("stage", stage)],
            buckets: [
                .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5), .seconds(15), .seconds(60), .seconds(300),
            ]
        ).recordNanoseconds(duration.nanoseconds)
    }

    /// Counts a cleanup that fell back to the rules, by why: `unavailable`, `added_words`, `dropped_words`.
    func recordCleanupFallback(_ reason: String) {
        registry.makeCounter(
            descriptor: .init(
                namespace: "myday", subsystem: "cleanup", metricName: "fallbacks", unitName: "total",
                helpText: "Model cleanups replaced by the rules"),
            labels: [("reason", reason)]
        ).increment()
    }

    /// Sets the gauges of jobs per state (queue depth is `queued`, dead jobs `dead`).
    func recordJobCounts(_ counts: [JobRecord.State: Int]) {
        for state in [JobRecord.State.queued, .running, .succeeded, .dead] {
            registry.makeGauge(
                descriptor: .init(
                    namespace: "myday", subsystem: "jobs", metricName: "in_state", unitName: "count", helpText: "Jobs per state"),
                labels: [("state", state.rawValue)]
            ).set(Int64(counts[state] ?? 0))
        }
    }

    /// `myday_speech_engine_ready{engine, model}`: 1 when the engine can transcribe now, 0 while it starts.
    func recordSpeechEngine(_ status: (engine: String, model: String, state: String)) {
        registry.makeGauge(
            descriptor: .init(
                namespace: "myday", subsystem: "speech", metricName: "engine_ready", unitName: "",
                helpText: "The speech engine and model this process transcribes with; 1 when it can transcribe now"),
            labels: [("engine", status.engine), ("model", status.model)]
        ).set(Int64(status.state == "ready" ? 1 : 0))
    }
}
