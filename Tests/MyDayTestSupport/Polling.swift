/// A condition a test waited for did not come true in time.
package struct PollingTimeout: Error, CustomStringConvertible {
    package let description: String
}

/// Waits until `condition` holds, checking every `interval`; throws `PollingTimeout` naming `what` if it never does.
package func pollUntil(
    _ what: String, deadline: Duration = .seconds(90), every interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws {
    let end = ContinuousClock.now + deadline
    while try await !condition() {
        guard ContinuousClock.now < end else { throw PollingTimeout(description: "timed out waiting until \(what)") }
        try await Task.sleep(for: interval)
    }
}
