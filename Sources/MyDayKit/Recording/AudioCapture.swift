import Foundation

/// Where recorded audio comes from: the microphone on a phone, a fake in tests.
///
/// `Recorder` reads `events` once, when it is created, and calls the methods one at a time, never concurrently.
/// After an `.interrupted` event the recorder calls `pause()`; after `.failed` it makes no further calls for that recording.
public protocol AudioCapture: AnyObject, Sendable {
    /// Starts writing audio to `file`. Throws when the microphone is unavailable or permission denied.
    func start(writingTo file: URL) async throws
    func pause() async
    func resume() async throws
    /// Finishes the file; after this the file is complete and playable.
    func stop() async throws
    /// Events the capture reports on its own: an interruption (phone call, route change), a level or a failure.
    var events: AsyncStream<AudioCaptureEvent> { get }
}
