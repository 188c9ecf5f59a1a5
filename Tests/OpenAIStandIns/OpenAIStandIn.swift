import Foundation
import Hummingbird
import Synchronization

/// A stand-in for an OpenAI-compatible server (one endpoint), on a loopback port, speaking its protocol.
package final class OpenAIStandIn: Sendable {
    package enum Answer: Sendable {
        case json(String)
        case status(Int)
        /// Takes the request and answers only once `release` is finished.
        case hang
        /// Answers the JSON that the closure makes of the request's body.
        case reply(@Sendable (Data) -> String)
        /// Answers as My Day's speech service does with `stream=true`: for each share, a `transcript.text.delta` whose
        /// `end` is that share of the recording's seconds, each after `release` took the one before; then a
        /// `transcript.text.done` holding `transcription` (a `verbose_json` answer).
        case events(shares: [Double], transcription: String)
    }

    package let path: String
    package let answer: Answer
    package let received = Mutex<[(headers: HTTPFields, body: Data)]>([])
    package let release = AsyncStream<Void>.makeStream()

    package init(_ answer: Answer, path: String = "/v1/audio/transcriptions") {
        self.path = path
        self.answer = answer
    }

    /// Runs the stand-in on a loopback port and hands `body` the port.
    package func serve(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
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
            case .hang:
                for await _ in self.release.stream {}
                return Response(status: .ok)
            case .reply(let make):
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: make(Data(buffer: bytes)))))
            case .events(let shares, let transcription):
                let seconds = Self.wavSeconds(Data(buffer: bytes))
                let release = self.release.stream
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream"],
                    body: ResponseBody { writer in
                        var released = release.makeAsyncIterator()
                        for (index, share) in shares.enumerated() {
                            if index > 0 { _ = await released.next() }
                            let delta = #"{"type":"transcript.text.delta","delta":"","end":\#(share * seconds)}"#
                            try await writer.write(ByteBuffer(string: "data: \(delta)\n\n"))
                        }
                        _ = await released.next()
                        let done = #"{"type":"transcript.text.done","# + transcription.drop { $0 != "{" }.dropFirst()
                        try await writer.write(ByteBuffer(string: "data: \(done.replacingOccurrences(of: "\n", with: ""))\n\n"))
                        try await writer.finish(nil)
                    })
            }
        }
        try await LoopbackApp.run(router, body)
    }

    /// The seconds of 16 kHz mono 16-bit audio in the WAV file inside a multipart body (its `data` chunk's size).
    private static func wavSeconds(_ body: Data) -> Double {
        guard let wave = body.range(of: Data("WAVE".utf8)), let data = body[wave.upperBound...].range(of: Data("data".utf8))
        else { return 0 }
        let size = body[data.upperBound..<data.upperBound + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
        return Double(size) / 32_000
    }

    /// A chat completion's answer, as `POST /v1/chat/completions` sends it.
    package static func chatAnswer(_ content: String) -> String {
        let message = String(decoding: try! JSONEncoder().encode(content), as: UTF8.self)
        return #"{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"#
            + message + #"},"finish_reason":"stop"}]}"#
    }

    /// A `verbose_json` transcription as Whisper servers send it: two sentences, the second in a segment the model
    /// itself marks as probably silent.
    package static let sampleTranscription = """
        {"task":"transcribe","language":"english","duration":6.0,"text":"Hello there. Thank you.",
         "words":[{"word":"Hello","start":0.0,"end":0.4},{"word":"there.","start":0.45,"end":0.9},
                  {"word":"Thank","start":4.0,"end":4.3},{"word":"you.","start":4.3,"end":4.6}],
         "segments":[{"id":0,"start":0.0,"end":1.0,"text":" Hello there.","avg_logprob":-0.2,"no_speech_prob":0.01},
                     {"id":1,"start":3.8,"end":5.0,"text":" Thank you.","avg_logprob":-1.4,"no_speech_prob":0.9}]}
        """
}
