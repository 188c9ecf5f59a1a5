import ChildProcesses
import Foundation
import Logging
import MyDaySpeech
import ServiceLifecycle

/// Where `scripts/install-speech-service` put the speech service: a virtual environment and the model beside it.
struct SpeechServiceInstallation: Sendable {
    let home: URL

    var python: URL { home.appendingPathComponent("venv/bin/python") }

    /// `home` when given (`MYDAY_SPEECH_HOME`); else the `speech` folder of the `.build` folder this program was
    /// built in, then `./.build/speech`. Nil when none holds an installed service.
    static func find(home: String?) -> SpeechServiceInstallation? {
        var candidates: [URL] = []
        if let home {
            candidates.append(URL(fileURLWithPath: home, isDirectory: true))
        } else {
            var folder = (Bundle.main.executableURL ?? URL(fileURLWithPath: "/")).resolvingSymlinksInPath()
            while folder.pathComponents.count > 1 {
                folder.deleteLastPathComponent()
                if folder.lastPathComponent == ".build" {
                    candidates.append(folder.appendingPathComponent("speech", isDirectory: true))
                    break
                }
            }
            candidates.append(URL(fileURLWithPath: ".build/speech", isDirectory: true))
        }
        return candidates.map(SpeechServiceInstallation.init).first(where: \.isInstalled)
    }

    /// The installer writes `venv/.sources` last, once the service's package is in place.
    var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: python.path)
            && FileManager.default.fileExists(atPath: home.appendingPathComponent("venv/.sources").path)
    }
}

/// Runs the speech service as a child process on loopback while the server runs: waits until it is ready,
/// restarts it with backoff when it ends, and stops it on shutdown. The child ends by itself when this process
/// dies, however it dies: its standard input is a pipe only this process holds (`ChildProcess` lifeline).
actor SpeechServiceSupervisor: Service {
    private enum State {
        case starting
        case ready(String)
        case stopped
    }

    /// What `/readyz` and `/metrics` tell of the service.
    struct Status: Sendable, Equatable {
        /// `starting`, `ready` or `stopped`.
        let state: String
        /// The model the service loaded, once it said so.
        let model: String?
    }

    let installation: SpeechServiceInstallation
    /// Transcriptions the service runs at once, all on one model: the job worker's slots.
    let concurrency: Int
    let logger: Logger
    let firstRestartDelay: Duration = .seconds(1)
    let longestRestartDelay: Duration = .seconds(60)
    /// How long a stopping service may finish a transcription before it is killed.
    let stopGrace: Duration = .seconds(10)
    private var state = State.starting
    private var model: String?
    private var stopping = false
    private var child: ChildProcess?
    private var waiters: [UUID: CheckedContinuation<String, any Error>] = [:]

    init(installation: SpeechServiceInstallation, concurrency: Int, logger: Logger) {
        self.installation = installation
        self.concurrency = max(1, concurrency)
        self.logger = logger
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            await supervise()
        } onGracefulShutdown: {
            Task { await self.stop() }
        }
    }

    var status: Status {
        switch state {
        case .starting: Status(state: "starting", model: model)
        case .ready: Status(state: "ready", model: model)
        case .stopped: Status(state: "stopped", model: model)
        }
    }

    /// The service's base URL once it is ready; waits while it starts, up to `patience`, then throws
    /// `OpenAICompatible.Failure.unreachable`, which makes a job try again later instead of failing.
    func baseURL(patience: Duration = .seconds(120)) async throws -> String {
        if case .ready(let url) = state { return url }
        if case .stopped = state { throw OpenAICompatible.Failure.unreachable("the speech service has stopped") }
        let id = UUID()
        let timer = Task {
            try await Task.sleep(for: patience)
            self.giveUp(id, OpenAICompatible.Failure.unreachable("the speech service did not become ready in time"))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.giveUp(id, CancellationError()) }
        }
    }

    private func supervise() async {
        var delay = firstRestartDelay
        while !stopping && !Task.isCancelled {
            let started = ContinuousClock.now
            do {
                let child = try ChildProcess(
                    installation.python.path, ["-m", "myday_speech", "--exit-when-stdin-closes"],
                    environment: environment(), errors: .passedThrough, lifeline: true)
                self.child = child
                // "listening on http://127.0.0.1:PORT model NAME"
                let ready = try await child.waitUntil { snapshot in
                    String(decoding: snapshot.standardOutput, as: UTF8.self).split(separator: "\n")
                        .first { $0.hasPrefix("listening on http://") }?.split(separator: " ").map(String.init)
                }
                model = ready.count >= 5 && ready[3] == "model" ? ready[4] : nil
                becomeReady(ready[2], processIdentifier: child.processIdentifier)
                let ended = try await child.finish()
                if !stopping { logger.warning("the speech service ended", metadata: ["status": "\(ended.status)"]) }
            } catch {
                if !stopping && !Task.isCancelled {
                    logger.error("the speech service could not start", metadata: ["error": "\(error)"])
                }
            }
            if case .ready = state { state = .starting }
            guard !stopping && !Task.isCancelled else { break }
            if ContinuousClock.now - started > longestRestartDelay { delay = firstRestartDelay }
            logger.info("restarting the speech service", metadata: ["in_seconds": "\(delay.components.seconds)"])
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, longestRestartDelay)
        }
        state = .stopped
        for (_, waiter) in waiters { waiter.resume(throwing: OpenAICompatible.Failure.unreachable("the server is stopping")) }
        waiters = [:]
    }

    private func stop() {
        stopping = true
        guard let child, child.isRunning else { return }
        child.signal(SIGTERM)
        let grace = stopGrace
        Task {
            try? await Task.sleep(for: grace)
            child.signal(SIGKILL)
        }
    }

    private func becomeReady(_ url: String, processIdentifier: Int32) {
        state = .ready(url)
        logger.info(
            "the speech service is ready",
            metadata: ["url": "\(url)", "model": "\(model ?? "?")", "pid": "\(processIdentifier)"])
        for (_, waiter) in waiters { waiter.resume(returning: url) }
        waiters = [:]
    }

    private func giveUp(_ id: UUID, _ error: any Error) {
        waiters.removeValue(forKey: id)?.resume(throwing: error)
    }

    /// This process's environment (the service reads its `MYDAY_SPEECH_*` settings from it) with a free port
    /// on loopback and, unless set, as many transcriptions at once as the worker has slots.
    private func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MYDAY_SPEECH_HOST"] = "127.0.0.1"
        environment["MYDAY_SPEECH_PORT"] = "0"
        if environment["MYDAY_SPEECH_CONCURRENCY"] == nil { environment["MYDAY_SPEECH_CONCURRENCY"] = "\(concurrency)" }
        // The installed model is on disk: nothing to fetch. A model named by the operator may need the network.
        if environment["MYDAY_SPEECH_MODEL"] == nil { environment["HF_HUB_OFFLINE"] = "1" }
        return environment
    }
}

/// Transcribes through the supervised speech service, waiting for it while it starts; the service tells how far it is.
struct SupervisedSpeechRecognizer: SpeechRecognizer {
    let supervisor: SpeechServiceSupervisor
    let model: String

    func recognize(pcmFile: URL, language: String?, prompt: String?, progress: @escaping RecognitionProgress) async throws
        -> Recognition
    {
        let url = try await supervisor.baseURL()
        var client = OpenAITranscriptionClient(baseURL: url, model: model, apiKey: nil)
        client.streamsProgress = true
        return try await client.recognize(pcmFile: pcmFile, language: language, prompt: prompt, progress: progress)
    }
}
