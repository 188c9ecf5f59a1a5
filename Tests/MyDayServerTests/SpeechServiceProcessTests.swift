import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// `myday-server serve` with the installed speech service (Whisper) as its supervised child process.
@Suite(.serialized) struct SpeechServiceProcessTests {
    /// The pid in the newest "the speech service is ready" line of `logs`, and how many such lines there are.
    private func speechServiceReady(in logs: String) -> (pid: Int32, count: Int)? {
        let lines = logs.split(separator: "\n").filter { $0.contains("the speech service is ready") }
        guard let last = lines.last, let match = last.firstMatch(of: /pid=(\d+)/), let pid = Int32(match.1) else { return nil }
        return (pid, lines.count)
    }

    /// Whether `pid` has ended (a zombie waiting for its new parent to reap it counts as ended).
    private func hasEnded(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        return status.contains("State:\tZ")
    }

    @Test func theServerTranscribesWithWhisperRestartsTheServiceAndTakesItAlongWhenKilled() async throws {
        let configuration = try await TestDatabase.sqlite.freshConfiguration()
        let data = configuration.dataDirectory
        // Given the server started with the speech service installed beside this build
        let server = try await ServerProcess(
            dataDirectory: data, environment: ["MYDAY_SPEECH_SERVICE": "auto", "MYDAY_WORKERS": "1"])
        var ready: (pid: Int32, count: Int)?
        try await pollUntil("the speech service is ready") {
            ready = speechServiceReady(in: server.logs)
            return ready != nil
        }
        let first = try #require(ready)
        let audio = try await TestSpeech.m4a(TestSpeech.diarySentence)

        try await server.withClient { api in
            // Then readiness and metrics name Whisper and its model
            let speech = try await api.send(.get, "/readyz").json["speech"] as? [String: String]
            #expect(speech == ["engine": "whisper", "model": "whisper-base", "state": "ready"])
            let metrics = try await api.send(.get, "/metrics").text
            #expect(metrics.contains(#"myday_speech_engine_ready{engine="whisper",model="whisper-base"} 1"#))

            // When a recording is uploaded, then Whisper's words are stored
            let session = try await api.register()
            let id = try await api.createUploadedEntry(session, audio: audio)
            let entry = try await api.finishedTranscription(session, id)
            let clean = try #require(entry["transcript_clean"] as? String, "\(entry)")
            let heard = Set(clean.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
            #expect(Set(TestSpeech.diarySentence.split(separator: " ").map(String.init)).subtracting(heard).count <= 2)

            // When the service dies, then the server starts it again, and the next recording is transcribed
            kill(first.pid, SIGKILL)
            try await pollUntil("the speech service is restarted") {
                (speechServiceReady(in: server.logs)?.count ?? 0) > first.count
            }
            let again = try await api.finishedTranscription(session, try await api.createUploadedEntry(session, audio: audio))
            #expect(again["status"] as? String == "transcribed", "\(again)")
        }
        let second = try #require(speechServiceReady(in: server.logs))
        #expect(second.pid != first.pid)

        // When the server is killed outright, then its speech service ends too
        server.kill()
        _ = try await server.waitForExit()
        try await pollUntil("the speech service ends with its server") { hasEnded(second.pid) }
    }

    @Test func aServerAskedToStopStopsItsSpeechServiceToo() async throws {
        let configuration = try await TestDatabase.sqlite.freshConfiguration()
        // Given a server whose speech service is ready
        let server = try await ServerProcess(
            dataDirectory: configuration.dataDirectory, environment: ["MYDAY_SPEECH_SERVICE": "auto", "MYDAY_WORKERS": "1"])
        var ready: (pid: Int32, count: Int)?
        try await pollUntil("the speech service is ready") {
            ready = speechServiceReady(in: server.logs)
            return ready != nil
        }
        let speech = try #require(ready).pid
        // When it is asked to stop (SIGTERM), then it ends cleanly, and so does the service, not restarted
        server.kill(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        try await pollUntil("the speech service ends") { hasEnded(speech) }
        #expect(speechServiceReady(in: server.logs)?.count == 1)
        #expect(!server.logs.contains("restarting the speech service"))
    }

    @Test func anEntryInFrenchFailsWithPocketSphinxAndIsTranscribedAgainOnceWhisperIsThere() async throws {
        let configuration = try await TestDatabase.sqlite.freshConfiguration()
        let data = configuration.dataDirectory
        let french = try await TestSpeech.m4a("Bonjour. Aujourd'hui, il fait très beau, et je suis content.", voice: "fr")
        // Given a server with PocketSphinx only, and a recording whose device speaks French
        let first = try await ServerProcess(dataDirectory: data, environment: ["MYDAY_WORKERS": "1"])
        let (session, id) = try await first.withClient { api in
            let session = try await api.register()
            let id = try await api.createUploadedEntry(session, audio: french, language: "fr-FR")
            // Then it fails, saying which engine is missing, and no English words are stored
            let failed = try await api.finishedTranscription(session, id)
            #expect(failed["status"] as? String == "failed")
            #expect((failed["failure_reason"] as? String)?.contains("PocketSphinx") == true, "\(failed)")
            #expect((failed["transcript_clean"] as? String ?? "").isEmpty)
            return (session, id)
        }
        first.kill(signal: SIGTERM)
        _ = try await first.waitForExit()

        // When the server runs again with the speech service and the entry is transcribed again
        let second = try await ServerProcess(
            dataDirectory: data, environment: ["MYDAY_SPEECH_SERVICE": "auto", "MYDAY_WORKERS": "1"])
        defer { second.kill(signal: SIGTERM) }
        try await second.withClient { api in
            let again = try await api.send(.post, "/v1/entries/\(id)/retranscribe", token: session.accessToken)
            #expect(again.status == .ok || again.status == .accepted, "\(again.text)")
            // Then French words are stored, with the entry's language
            let entry = try await api.finishedTranscription(session, id)
            #expect(entry["status"] as? String == "transcribed", "\(entry)")
            let clean = (entry["transcript_clean"] as? String ?? "").lowercased()
            #expect(["bonjour", "fait", "beau"].filter { clean.contains($0) }.count >= 2, "\(clean)")
            #expect(entry["language"] as? String == "fr-FR")
        }
    }

    /// About forty seconds of a day (over 1 MB as PCM) told in sentences that differ.
    private static let longEntry = [
        TestSpeech.diarySentence, "in the morning the bus was late so i walked to work in the rain",
        "at lunch we sat outside by the river and ate sandwiches", "my manager asked me to finish the report by friday",
        "after work i called my mother and she told me about her new neighbours",
        "then i cooked pasta with tomatoes and fresh basil for dinner",
        "later we watched a film about a family who sail around the world",
        "before bed i read two chapters of my book and wrote this down",
        "tomorrow i want to get up early and go swimming before work",
        "on saturday we are going to visit my grandparents by the sea",
    ].joined(separator: ". ")

    @Test func aServiceKilledMidJobLeavesTheJobToBeRetriedAndTranscribedOnce() async throws {
        let configuration = try await TestDatabase.sqlite.freshConfiguration()
        let server = try await ServerProcess(
            dataDirectory: configuration.dataDirectory, environment: ["MYDAY_SPEECH_SERVICE": "auto", "MYDAY_WORKERS": "1"])
        defer { server.kill(signal: SIGTERM) }
        var ready: (pid: Int32, count: Int)?
        try await pollUntil("the speech service is ready") {
            ready = speechServiceReady(in: server.logs)
            return ready != nil
        }
        let speech = try #require(ready).pid
        // Long enough that its PCM (over 1 MB) is spooled to a file while the service transcribes it; sentences that
        // differ, as a person's do (one sentence said eight times is a text Whisper's and the guard's loop rules may
        // drop whole, depending on the temperature Whisper fell back to)
        let audio = try await TestSpeech.m4a(Self.longEntry)
        try await server.withClient { api in
            let session = try await api.register()
            let id = try await api.createUploadedEntry(session, audio: audio)
            // Given the service holding the recording it was sent, when it is killed
            try await pollUntil("the service receives the recording") {
                OpenFiles.of(speech).contains { $0.hasPrefix("/tmp/") }
            }
            kill(speech, SIGKILL)
            // Then the job is tried again once the service is back, and the entry is transcribed once (the service loads
            // its model again and transcribes 40 s of speech: minutes on a machine that is busy with other work)
            let entry = try await api.finishedTranscription(session, id, deadline: .seconds(360))
            #expect(entry["status"] as? String == "transcribed", "\(entry)")
            #expect((entry["transcript_clean"] as? String ?? "").lowercased().contains("garden"))
            let metrics = try await api.send(.get, "/metrics").text
            #expect(metrics.contains(#"myday_jobs_in_state_count{state="succeeded"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"myday_jobs_in_state_count{state="dead"} 0"#))
        }
        #expect(server.logs.components(separatedBy: "entry transcribed").count - 1 == 1)
        #expect(server.logs.contains("job failed; will retry"))
    }

    @Test func jobsWaitForAServiceThatIsStillStarting() async throws {
        let configuration = try await TestDatabase.sqlite.freshConfiguration()
        // Given a speech service that cannot finish starting until the test lets it: its Python waits on a FIFO
        let installed = try #require(SpeechServiceInstallation.find(home: nil), "run scripts/install-speech-service")
        let home = configuration.dataDirectory.appendingPathComponent("speech-home")
        let gate = home.appendingPathComponent("gate")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("venv/bin"), withIntermediateDirectories: true)
        #expect(mkfifo(gate.path, 0o600) == 0)
        try Data().write(to: home.appendingPathComponent("venv/.sources"))
        let wrapper = home.appendingPathComponent("venv/bin/python")
        try Data("#!/bin/sh\nread line < '\(gate.path)'\nexec '\(installed.python.path)' \"$@\"\n".utf8).write(to: wrapper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let server = try await ServerProcess(
            dataDirectory: configuration.dataDirectory,
            environment: ["MYDAY_SPEECH_SERVICE": "auto", "MYDAY_SPEECH_HOME": home.path, "MYDAY_WORKERS": "1"])
        defer { server.kill(signal: SIGTERM) }
        try await server.withClient { api in
            // When a recording arrives while the service is starting
            let session = try await api.register()
            let id = try await api.createUploadedEntry(session, audio: try await TestSpeech.m4a(TestSpeech.diarySentence))
            try await pollUntil("the job waits for the service") {
                let entry = try await api.send(.get, "/v1/entries/\(id)", token: session.accessToken).json
                let speech = try await api.send(.get, "/readyz").json["speech"] as? [String: String]
                return entry["status"] as? String == "transcribing" && speech?["state"] == "starting"
            }
            // Then, once the service is ready, the same attempt goes on: transcribed, never failed or retried
            try await onDedicatedThread { try "go\n".write(to: gate, atomically: false, encoding: .utf8) }
            let entry = try await api.finishedTranscription(session, id)
            #expect(entry["status"] as? String == "transcribed", "\(entry)")
        }
        #expect(!server.logs.contains("job failed"))
    }
}
