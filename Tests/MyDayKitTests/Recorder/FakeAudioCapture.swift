import Foundation
import MyDayKit
import Testing

/// A capture that checks every call against the calls the test expected, in order, and throws when told to.
@MainActor
final class FakeAudioCapture: AudioCapture {
    enum Call: Equatable, Sendable, CustomStringConvertible {
        case start(URL)
        case pause
        case resume
        case stop

        var description: String {
            switch self {
            case .start(let file): "start(\(file.lastPathComponent))"
            case .pause: "pause"
            case .resume: "resume"
            case .stop: "stop"
            }
        }
    }

    private(set) var receivedCalls: [Call] = []
    private var expectedCalls: [(call: Call, error: FakeCaptureError?)] = []

    nonisolated let events: AsyncStream<AudioCaptureEvent>
    private nonisolated let eventContinuation: AsyncStream<AudioCaptureEvent>.Continuation

    init() {
        (events, eventContinuation) = AsyncStream.makeStream(of: AudioCaptureEvent.self)
    }

    func expect(_ call: Call, throwing error: FakeCaptureError? = nil) {
        expectedCalls.append((call: call, error: error))
    }

    func send(_ event: AudioCaptureEvent) {
        eventContinuation.yield(event)
    }

    func verifyAllExpectedCallsReceived(sourceLocation: SourceLocation = #_sourceLocation) {
        let missing = expectedCalls.map(\.call)
        #expect(missing.isEmpty, "Expected capture calls never made: \(missing)", sourceLocation: sourceLocation)
    }

    func start(writingTo file: URL) async throws {
        try receive(.start(file))
    }

    func pause() async {
        try? receive(.pause)
    }

    func resume() async throws {
        try receive(.resume)
    }

    func stop() async throws {
        try receive(.stop)
    }

    private func receive(_ call: Call) throws {
        receivedCalls.append(call)
        guard let next = expectedCalls.first, next.call == call else {
            let nextDescription = expectedCalls.first.map { "\($0.call)" } ?? "none"
            Issue.record("Unexpected capture call \(call); next expected call: \(nextDescription)")
            return
        }
        expectedCalls.removeFirst()
        if let error = next.error {
            throw error
        }
    }
}

/// An error with a readable message, as a real capture would throw.
struct FakeCaptureError: LocalizedError, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var errorDescription: String? {
        message
    }
}
