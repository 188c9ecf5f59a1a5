import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import MyDayServer

/// A stand-in for an OpenAI-compatible server (one endpoint), on a loopback port, speaking its protocol.
final class OpenAIStandIn: Sendable {
    enum Answer: Sendable {
        case json(String)
        case status(Int)
        case slow(Duration)
    }

    let path: String
    let answer: Answer
    let received = Mutex<[(headers: HTTPFields, body: Data)]>([])

    init(_ answer: Answer, path: String = "/v1/audio/transcriptions") {
        self.path = path
        self.answer = answer
    }

    /// Runs the stand-in and hands `body` a recognizer pointed at it.
    func run(timeout: Duration = .seconds(30), _ body: @escaping @Sendable (OpenAITranscriptionClient) async throws -> Void)
        async throws
    {
        try await serve { port in
            var recognizer = OpenAITranscriptionClient(
                baseURL: "http://127.0.0.1:\(port)/", model: "whisper-test", apiKey: "sk-test")
            recognizer.timeout = timeout
            try await body(recognizer)
        }
    }

    /// Runs the stand-in on a loopback port and hands `body` the port.
    func serve(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        router.post(RouterPath(path)) { request, context -> Response in
            let bytes = try await request.body.collect(upTo: 64 * 1024 * 1024)
            self.received.withLock { $0.append((request.headers, Data(buffer: bytes))) }
            switch self.answer {
            case .json(let json):
                return Response(
                    status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
            case .status(let code):
                return Response(
                    status: .init(code: code), headers: [.contentType: "application/json"],
                    body: .init(
                        byteBuffer: ByteBuffer(string: #"{"error":{"message":"scripted","type":"invalid_request_error"}}"#)))
            case .slow(let delay):
                try await Task.sleep(for: delay)
                return Response(status: .ok)
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(client.port!) }
    }
}

@Suite struct OpenAITranscriptionTests {
    private func pcmFile(seconds: Int = 1) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("myday-pcm-\(UUID().uuidString).pcm")
        try Data(repeating: 0, count: 32_000 * seconds).write(to: url)
        return url
    }

    static let answer = """
        {"task":"transcribe","language":"english","duration":6.0,"text":"Hello there. Thank you.",
         "words":[{"word":"Hello","start":0.0,"end":0.4},{"word":"there.","start":0.45,"end":0.9},
                  {"word":"Thank","start":4.0,"end":4.3},{"word":"you.","start":4.3,"end":4.6}],
         "segments":[{"id":0,"start":0.0,"end":1.0,"text":" Hello there.","avg_logprob":-0.2,"no_speech_prob":0.01},
                     {"id":1,"start":3.8,"end":5.0,"text":" Thank you.","avg_logprob":-1.4,"no_speech_prob":0.9}]}
        """

    @Test func asksForWordTimingsAndDropsWhatTheModelMarksAsSilence() async throws {
        let standIn = OpenAIStandIn(.json(Self.answer))
        let pcm = try pcmFile()
        try await standIn.run { recognizer in
            let recognition = try await recognizer.recognize(pcmFile: pcm, language: "en-US")
            #expect(recognition.words.map(\.word) == ["Hello", "there."])
            #expect(recognition.words.first?.end == 0.4)
            #expect(recognition.language == "en-US")
        }
        let request = try #require(standIn.received.withLock { $0.first })
        #expect(request.headers[.authorization] == "Bearer sk-test")
        #expect(request.headers[.contentType]?.hasPrefix("multipart/form-data; boundary=") == true)
        let text = String(decoding: request.body, as: UTF8.self)
        for part in [
            "name=\"model\"\r\n\r\nwhisper-test", "name=\"response_format\"\r\n\r\nverbose_json",
            "name=\"timestamp_granularities[]\"\r\n\r\nword", "name=\"language\"\r\n\r\nen\r\n", "filename=\"audio.wav\"",
        ] {
            #expect(text.contains(part), "missing \(part)")
        }
        // The audio goes as a WAV file: a RIFF header and then exactly the PCM
        let riff = try #require(request.body.range(of: Data("RIFF".utf8)))
        #expect(request.body[riff.lowerBound + 8..<riff.lowerBound + 12] == Data("WAVE".utf8))
        #expect(request.body.count > 32_000 + 44)
    }

    @Test func segmentsStandInForMissingWords() async throws {
        let onlySegments = #"{"text":"one two three","segments":[{"start":1.0,"end":2.5,"text":" one two three"}]}"#
        try await OpenAIStandIn(.json(onlySegments)).run { recognizer in
            let recognition = try await recognizer.recognize(pcmFile: try pcmFile(), language: nil)
            #expect(
                recognition.words == [
                    RecognizedWord(word: "one", start: 1.0, end: 1.5), RecognizedWord(word: "two", start: 1.5, end: 2.0),
                    RecognizedWord(word: "three", start: 2.0, end: 2.5),
                ])
        }
    }

    @Test func serverErrorsAreRetriedAndRefusalsAreNot() async throws {
        for code in [500, 503, 429] {
            try await OpenAIStandIn(.status(code)).run { recognizer in
                await #expect(throws: OpenAICompatible.Failure.self) {
                    try await recognizer.recognize(pcmFile: try pcmFile(), language: nil)
                }
            }
        }
        for code in [400, 401, 413] {
            try await OpenAIStandIn(.status(code)).run { recognizer in
                await #expect(throws: JobFailure.self) { try await recognizer.recognize(pcmFile: try pcmFile(), language: nil) }
            }
        }
    }

    @Test func aSlowServerTimesOut() async throws {
        try await OpenAIStandIn(.slow(.seconds(3))).run(timeout: .milliseconds(500)) { recognizer in
            let started = ContinuousClock.now
            await #expect(throws: OpenAICompatible.Failure.self) {
                try await recognizer.recognize(pcmFile: try pcmFile(), language: nil)
            }
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(500) && waited < .seconds(3))
        }
    }
}
