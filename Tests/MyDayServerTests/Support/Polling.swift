import Testing

/// Waits until `condition` holds, checking every 10 ms; records an issue naming `what` if it never does.
func pollUntil(
    _ what: String, deadline: Duration = .seconds(90), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let end = ContinuousClock.now + deadline
    while try await !condition() {
        guard ContinuousClock.now < end else {
            Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
