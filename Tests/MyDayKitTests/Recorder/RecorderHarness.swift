import Foundation
import MyDayKit
import Observation
import Testing

/// A recorder wired to a strict fake capture, a manual clock and in-memory hints.
@MainActor
struct RecorderHarness {
    let capture = FakeAudioCapture()
    let time = ManualUptime(100)
    let hints: InMemoryHintStore
    let recorder: Recorder

    init(hasShownStopHint: Bool = true) {
        let time = self.time
        let ids = SequentialIDs()
        hints = InMemoryHintStore(hasShownStopHint: hasShownStopHint)
        recorder = Recorder(
            capture: capture,
            hintStore: hints,
            now: { Fixture.startDate },
            uptime: { time.current },
            prepareFile: { id, _ in Fixture.file(for: id) },
            newID: { ids.next() },
            timeZone: Fixture.timeZone
        )
    }

    /// Taps at `uptime` to start the n-th recording, expecting the capture to start writing its file.
    func startRecording(number: Int = 1, at uptime: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) async {
        capture.expect(.start(Fixture.file(number)))
        time.current = uptime
        await recorder.tap()
        #expect(recorder.state == .recording, sourceLocation: sourceLocation)
    }

    /// Sends a capture event and waits until the recorder's `observed` value changes because of it.
    func send<Value>(_ event: AudioCaptureEvent, andWaitForChangeOf observed: @escaping () -> Value) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = observed()
            } onChange: {
                continuation.resume()
            }
            capture.send(event)
        }
    }
}
