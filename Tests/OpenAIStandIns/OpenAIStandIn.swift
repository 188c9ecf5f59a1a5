import Foundation
import Hummingbird
import HummingbirdTesting
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
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(client.port!) }
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
