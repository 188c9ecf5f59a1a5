import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import MyDaySpeech

/// The speech service's streamed answer (`stream=true`), read as it comes.
@Suite struct TranscriptionEventsTests {
    private func read(_ text: String, chunk: Int = 7) async throws -> (heard: [Double], words: [String]) {
        // (cut into small pieces, as a network may deliver it)
        let bytes = Array(text.utf8)
        let pieces = stride(from: 0, to: bytes.count, by: chunk).map {
            ByteBuffer(bytes: bytes[$0..<min($0 + chunk, bytes.count)])
        }
        let body = AsyncStream<ByteBuffer> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        var heard: [Double] = []
        let transcription = try await TranscriptionEvents.read(.stream(body), maxBytes: 1 << 20) { heard.append($0) }
        return (heard, transcription.spokenWords().map(\.word))
    }

    @Test func deltasTellHowFarAndTheLastEventHoldsTheWholeAnswer() async throws {
        let answer = try await read(
            """
            data: {"type":"transcript.text.delta","delta":"","end":12.5}

            data: {"type":"transcript.text.delta","delta":" Hello there.","end":30}

            : a comment, which is not an event

            data: {"type":"transcript.text.done","text":"Hello there.","language":"en",
            data:  "words":[{"word":" Hello","start":0.1,"end":0.4},{"word":" there.","start":0.5,"end":0.9}]}


            """)
        #expect(answer.heard == [12.5, 30])
        #expect(answer.words == ["Hello", "there."])
    }

    @Test func anErrorEventRefusesTheRecordingForGood() async throws {
        let failure = await #expect(throws: SpeechFailure.self) {
            try await read(
                """
                data: {"type":"transcript.text.delta","delta":"","end":30}

                data: {"type":"error","error":{"message":"The audio could not be decoded to its end.","code":"invalid_audio"}}


                """)
        }
        #expect(failure?.description.contains("could not be decoded to its end") == true)
    }

    @Test func aStreamThatEndsBeforeItsTranscriptIsTriedAgain() async throws {
        await #expect(throws: OpenAICompatible.Failure.self) {
            try await read("data: {\"type\":\"transcript.text.delta\",\"delta\":\"\",\"end\":30}\n\n")
        }
    }
}
