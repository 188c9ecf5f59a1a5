import AVFoundation
import Foundation
import MyDayKit

/// The microphone, through `AVAudioEngine`, for `Recorder`.
///
/// Recording format: while recording, 16-bit 44.1 kHz mono WAV at `RecordingLibrary.pcmCopy(of:)` beside the target,
/// because a WAV keeps every buffer that reached the disk through a crash while an `.m4a` is unreadable until closed;
/// on stop the WAV is encoded into the target as AAC in `.m4a` (the container `HomeViewModel` notes) and removed.
/// When encoding fails, or a crash or failure ends the take, the WAV stays and the library recovers it at launch.
///
/// Sendable by hand: `take` is read and written under `lock` only, also by the audio tap thread.
final class EngineAudioCapture: AudioCapture, @unchecked Sendable {
    let events: AsyncStream<AudioCaptureEvent>
    private let continuation: AsyncStream<AudioCaptureEvent>.Continuation
    private let lock = NSLock()
    private var take: CaptureTake?

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: AudioCaptureEvent.self)
        events = stream
        self.continuation = continuation
    }

    /// A capture let go while recording (its screen went away) stops the microphone; the WAV stays for recovery.
    deinit {
        if let take { abandon(take) }
        continuation.finish()
    }

    func start(writingTo file: URL) async throws {
        if let leftover = current() { abandon(leftover) }
        guard await AVAudioApplication.requestRecordPermission() else { throw AudioCaptureError.microphoneDenied }
        let session = AVAudioSession.sharedInstance()
        do {
            // `.default` keeps iOS's voice gain control like Voice Memos; `.measurement` turns it off, `.voiceChat` is for calls.
            var options: AVAudioSession.CategoryOptions = [.defaultToSpeaker, .allowBluetoothHFP]
            // iOS 26: AirPods record in full bandwidth where the route allows it (only in `.default` mode); HFP is the
            // fallback.
            if #available(iOS 26.0, *) { options.insert(.bluetoothHighQualityRecording) }
            try session.setCategory(.playAndRecord, mode: .default, options: options)
            try session.setActive(true)
        } catch {
            throw AudioCaptureError.microphoneBusy
        }
        let take: CaptureTake
        do {
            take = try CaptureTake(target: file)
        } catch {
            try? session.setActive(false, options: .notifyOthersOnDeactivation)
            throw error
        }
        lock.withLock { self.take = take }
        observe(take)
        do {
            try connectInput(of: take)
            try run(take)
        } catch {
            halt(take)
            try? take.writer.close()
            try? FileManager.default.removeItem(at: take.writer.url)
            throw error
        }
    }

    func pause() async {
        guard let take = current() else { return }
        lock.withLock { take.isRunning = false }
        take.engine.pause()
    }

    /// `Recorder` makes no further call after a failed resume, so the take ends then (its WAV stays).
    func resume() async throws {
        guard let take = current() else { throw AudioCaptureError.notRecording }
        do {
            try AVAudioSession.sharedInstance().setActive(true)
            let connectedFormat = lock.withLock { take.inputFormat }
            if take.engine.inputNode.outputFormat(forBus: 0) != connectedFormat {
                try connectInput(of: take)
            }
            try run(take)
        } catch {
            abandon(take)
            throw AudioCaptureError.keptForNextLaunch(error.localizedDescription)
        }
    }

    func stop() async throws {
        guard let take = current() else { throw AudioCaptureError.notRecording }
        halt(take)
        let wav = take.writer.url
        let target = take.target
        do {
            try take.writer.close()
            try await Task.detached(priority: .userInitiated) { try AACEncoder.encode(wav, into: target) }.value
        } catch {
            throw AudioCaptureError.keptForNextLaunch(error.localizedDescription)
        }
        try? FileManager.default.removeItem(at: wav)
    }

    // MARK: - Engine

    private func current() -> CaptureTake? {
        lock.withLock { take }
    }

    /// Taps the input in its current format (it changes with the route); the converter follows it.
    private func connectInput(of take: CaptureTake) throws {
        let input = take.engine.inputNode
        let format = input.outputFormat(forBus: 0)
        guard format.sampleRate > 0, format.channelCount > 0 else { throw AudioCaptureError.noMicrophone }
        guard let converter = AVAudioConverter(from: format, to: take.recordingFormat) else {
            throw AudioCaptureError.unsupportedInput
        }
        input.removeTap(onBus: 0)
        lock.withLock {
            take.inputFormat = format
            take.converter = converter
        }
        input.installTap(onBus: 0, bufferSize: 4096, format: format) { [weak self] buffer, _ in
            self?.process(buffer, of: take)
        }
    }

    private func run(_ take: CaptureTake) throws {
        take.engine.prepare()
        lock.withLock { take.isRunning = true }
        do {
            try take.engine.start()
        } catch {
            lock.withLock { take.isRunning = false }
            throw error
        }
    }

    /// On the tap's thread: never touches the main actor, and holds the lock only while converting and writing.
    private func process(_ buffer: AVAudioPCMBuffer, of take: CaptureTake) {
        let outcome = lock.withLock { take.record(buffer) }
        if let level = outcome.level { continuation.yield(.level(level)) }
        if let failure = outcome.failure { fail(take, because: failure) }
    }

    /// Stops the engine and removes the tap and the observers; when the take was the current one, also forgets it and
    /// lets other audio play again (a late call for an old take must not deactivate the session of a new one).
    private func halt(_ take: CaptureTake) {
        let wasCurrent = lock.withLock { () -> Bool in
            take.isRunning = false
            guard self.take === take else { return false }
            self.take = nil
            return true
        }
        take.engine.inputNode.removeTap(onBus: 0)
        take.engine.stop()
        let observers = lock.withLock { () -> [any NSObjectProtocol] in
            defer { take.observers = [] }
            return take.observers
        }
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        if wasCurrent { try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation) }
    }

    /// Ends a take that `Recorder` will not stop (it failed): its WAV stays for the library's recovery at launch.
    private func abandon(_ take: CaptureTake) {
        halt(take)
        try? take.writer.close()
    }

    // MARK: - What the system reports

    private func observe(_ take: CaptureTake) {
        let center = NotificationCenter.default
        let observers = [
            center.addObserver(forName: AVAudioSession.interruptionNotification, object: nil, queue: nil) { [weak self] note in
                guard let raw = note.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
                    let type = AVAudioSession.InterruptionType(rawValue: raw)
                else { return }
                switch type {
                case .began: self?.interrupt(take, because: "Another app took the microphone, perhaps for a call.")
                case .ended:
                    let options = (note.userInfo?[AVAudioSessionInterruptionOptionKey] as? UInt)
                        .map(AVAudioSession.InterruptionOptions.init(rawValue:))
                    self?.continuation.yield(.interruptionEnded(shouldResume: options?.contains(.shouldResume) == true))
                @unknown default: break
                }
            },
            // AirPods connecting or leaving change the input: the engine stops, and recording goes on from the new
            // microphone where it can; only when it cannot is the recording paused (and the person told).
            center.addObserver(forName: .AVAudioEngineConfigurationChange, object: take.engine, queue: nil) { [weak self] _ in
                self?.followInputChange(take)
            },
            center.addObserver(forName: AVAudioSession.mediaServicesWereResetNotification, object: nil, queue: nil) {
                [weak self] _ in
                self?.fail(take, because: "The iPhone's audio restarted. What was recorded appears when My Day opens next.")
            },
        ]
        lock.withLock { take.observers = observers }
    }

    /// The input changed under a take that was recording: it records on from the new input, or is interrupted.
    private func followInputChange(_ take: CaptureTake) {
        guard lock.withLock({ self.take === take && take.isRunning }) else { return }
        do {
            try connectInput(of: take)
            try run(take)
        } catch {
            interrupt(take, because: "The microphone changed and could not be used.")
        }
    }

    /// Yields `.interrupted` once for a take that was recording; `Recorder` then calls `pause()`.
    private func interrupt(_ take: CaptureTake, because reason: String) {
        let wasRecording = lock.withLock { () -> Bool in
            defer { take.isRunning = false }
            return self.take === take && take.isRunning
        }
        if wasRecording { continuation.yield(.interrupted(reason: reason)) }
    }

    /// Yields `.failed` once and ends the take away from the thread that noticed (the tap's own thread cannot stop it).
    private func fail(_ take: CaptureTake, because reason: String) {
        let isCurrent = lock.withLock { () -> Bool in
            defer { take.hasFailed = true }
            return self.take === take && !take.hasFailed
        }
        guard isCurrent else { return }
        continuation.yield(.failed(reason: reason))
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            self?.abandon(take)
        }
    }
}
