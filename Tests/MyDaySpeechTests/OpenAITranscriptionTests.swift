import Foundation
import HTTPTypes
import MyDayTestSupport
import OpenAIStandIns
import Synchronization
import Testing

@testable import MyDaySpeech

extension OpenAIStandIn {
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
}

@Suite struct OpenAITranscriptionTests {
    private func pcmFile(seconds: Int = 1) throws -> URL {
        let url = TestFolder.path("myday-pcm", ext: "pcm")
        try Data(repeating: 0, count: 32_000 * seconds).write(to: url)
        return url
    }

    @Test func asksForWordTimingsAndDropsWhatTheModelMarksAsSilence() async throws {
        let standIn = OpenAIStandIn(.json(OpenAIStandIn.sampleTranscription))
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

    @Test func theRawWordsKeepTheEnginesOwnSpelling() async throws {
        // Given Whisper's words as faster-whisper splits them: a new word at each space or punctuation mark
        let pieces: [(String, Double)] = [
            (" An", 0.9), (" ill", 0.8), ("-disposed", 0.7), (" cat", 0.9), (" didn", 0.95), ("'t", 0.99), (" pay", 0.9),
            (" $5", 0.6), (".50", 0.5), (" for", 0.9), (" 1", 0.8), (",000", 0.9), (" rock", 0.9), ("'n'roll", 0.4),
            (" records", 0.9), (" at", 0.9), (" 9", 0.9), (":30", 0.9), (" (", 0.9), ("£", 0.3), ("12", 0.9),
            (").", 0.9), (" 東京", 0.9), ("駅", 0.8),
        ]
        let words = pieces.enumerated().map { index, piece in
            #"{"word":"\#(piece.0)","start":\#(Double(index) / 2),"end":\#(Double(index) / 2 + 0.4),"probability":\#(piece.1)}"#
        }
        let answer = #"{"text":"ignored","language":"en","words":[\#(words.joined(separator: ","))]}"#
        try await OpenAIStandIn(.json(answer)).run { recognizer in
            let recognition = try await recognizer.recognize(pcmFile: try pcmFile(), language: nil)
            // Then the raw text reads as the engine wrote it: joins kept, one space between words
            #expect(
                recognition.rawText
                    == "An ill-disposed cat didn't pay $5.50 for 1,000 rock'n'roll records at 9:30 (£12). 東京 駅")
            // And a joined word spans its pieces and is as doubtful as its most doubtful piece
            let dollars = try #require(recognition.words.first { $0.word == "$5.50" })
            #expect(dollars.start == 3.5 && dollars.end == 4.4 && dollars.probability == 0.5)
            #expect(recognition.words.count == 15)
            // A piece that starts with a letter stays a word: scripts without spaces have none before any word
            #expect(recognition.words.suffix(2).map(\.word) == ["東京", "駅"])
            #expect(recognition.words.first?.probability == 0.9)
        }
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
        // A busy or broken service is a failure the job retries; the client itself sends once
        for code in [500, 503, 429] {
            let standIn = OpenAIStandIn(.status(code))
            try await standIn.run { recognizer in
                let failure = await #expect(throws: OpenAICompatible.Failure.self) {
                    try await recognizer.recognize(pcmFile: try pcmFile(), language: nil)
                }
                guard case .unavailable(code) = failure else {
                    Issue.record("HTTP \(code) should be unavailable, not \(String(describing: failure))")
                    return
                }
            }
            #expect(standIn.received.withLock { $0.count } == 1)
        }
        // A refusal is for good: the job gives up with the service's status
        for code in [400, 401, 413] {
            let standIn = OpenAIStandIn(.status(code))
            try await standIn.run { recognizer in
                let failure = await #expect(throws: SpeechFailure.self) {
                    try await recognizer.recognize(pcmFile: try pcmFile(), language: nil)
                }
                #expect(failure?.description.contains("HTTP \(code)") == true)
            }
            #expect(standIn.received.withLock { $0.count } == 1)
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let standIn = OpenAIStandIn(.hang)
        try await standIn.run(timeout: .milliseconds(200)) { recognizer in
            var recognizer = recognizer
            recognizer.timePerAudioSecond = .zero
            // When the server takes the recording and never answers
            let failure = await #expect(throws: OpenAICompatible.Failure.self) {
                try await recognizer.recognize(pcmFile: try pcmFile(), language: nil)
            }
            // Then the call ends as unreachable: a failure the job retries
            guard case .unreachable = failure else {
                Issue.record("expected unreachable, got \(String(describing: failure))")
                return
            }
            standIn.release.continuation.finish()
        }
    }

    @Test func aLongerRecordingMayTakeLonger() {
        var recognizer = OpenAITranscriptionClient(baseURL: "http://127.0.0.1:9", model: "whisper-test", apiKey: nil)
        recognizer.timeout = .seconds(300)
        recognizer.timePerAudioSecond = .seconds(3)
        // An hour of 16 kHz 16-bit mono PCM may take three hours more than the fixed allowance.
        #expect(recognizer.deadline(pcmByteCount: 32_000 * 3600) == .seconds(300 + 3 * 3600))
        #expect(recognizer.deadline(pcmByteCount: 0) == .seconds(300))
    }
}
