import AsyncHTTPClient
import MyDayModels
import NIOCore

/// The multipart form of OpenAI's `POST /v1/audio/transcriptions` for one recording: the fields, then the PCM
/// as a WAV file whose bytes are streamed from disk, so a recording of hours is never held in memory.
struct TranscriptionForm: Sendable {
    let boundary: String
    let model: String
    /// ISO 639-1; nil lets the service detect the language.
    let language: String?
    /// Words the recording may hold, as Whisper's `prompt` (the text it takes to come before the recording).
    let prompt: String?
    /// Asks for the answer as server-sent events, which tell how far the service is.
    var stream = false

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The request body around `pcm`, chunks of `pcmByteCount` bytes of 16 kHz mono s16le samples.
    func body<Chunks: AsyncSequence & Sendable>(pcm: Chunks, pcmByteCount: Int) -> HTTPClientRequest.Body
    where Chunks.Element == ByteBuffer {
        let head = head(pcmByteCount: pcmByteCount)
        var tail = ByteBuffer()
        tail.writeString("\r\n--\(boundary)--\r\n")
        let length = head.readableBytes + pcmByteCount + tail.readableBytes
        return .stream(Framed(head: head, body: pcm, tail: tail), length: .known(Int64(length)))
    }

    private func head(pcmByteCount: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        func field(_ name: String, _ value: String) {
            buffer.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        field("model", model)
        field("response_format", "verbose_json")
        field("timestamp_granularities[]", "word")
        field("timestamp_granularities[]", "segment")
        if let language { field("language", language) }
        if let prompt { field("prompt", prompt) }
        if stream { field("stream", "true") }
        buffer.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"audio.wav\"\r\nContent-Type: audio/wav\r\n\r\n"
        )
        buffer.writeBytes(WAVHeader.bytes(pcmByteCount: pcmByteCount, sampleRate: AudioDecoder.sampleRate))
        return buffer
    }
}

/// `head`, then every chunk of `body`, then `tail`.
private struct Framed<Body: AsyncSequence & Sendable>: AsyncSequence, Sendable where Body.Element == ByteBuffer {
    typealias Element = ByteBuffer
    let head: ByteBuffer
    let body: Body
    let tail: ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        var head: ByteBuffer?
        var body: Body.AsyncIterator
        var tail: ByteBuffer?

        mutating func next() async throws -> ByteBuffer? {
            if let chunk = head {
                head = nil
                return chunk
            }
            if let chunk = try await body.next() { return chunk }
            defer { tail = nil }
            return tail
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(head: head, body: body.makeAsyncIterator(), tail: tail) }
}
