import Foundation
import NIOCore
import NIOFoundationCompat
import _NIOFileSystem

/// Speech-to-text through any OpenAI-compatible `POST /v1/audio/transcriptions` (hosted Whisper,
/// faster-whisper servers, whisper.cpp's server), asking for word timestamps.
///
/// Whisper models can hallucinate text on silence; segments the model itself marks as probably
/// silent (`no_speech_prob` > 0.6 with `avg_logprob` < -1, Whisper's own rule) are dropped.
public struct OpenAITranscriptionClient: SpeechRecognizer {
    /// The server's base URL, without `/v1`.
    public let baseURL: String
    public let model: String
    public let apiKey: String?
    /// How long a transcription may take: `timeout`, plus `timePerAudioSecond` for each second of the recording.
    public var timeout: Duration = .seconds(300)
    public var timePerAudioSecond: Duration = .seconds(3)
    public var maxResponseBytes = 16 * 1024 * 1024

    public init(baseURL: String, model: String, apiKey: String?) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
    }

    public func recognize(pcmFile: URL, language: String?) async throws -> Recognition {
        let form = TranscriptionForm(
            boundary: "myday-\(UUID().uuidString)", model: model, language: language.map(Self.isoLanguage))
        let response = try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(pcmFile.path)) { pcm in
            let size = Int(try await pcm.info().size)
            return try await OpenAICompatible.post(
                baseURL: baseURL, path: "/v1/audio/transcriptions", apiKey: apiKey, contentType: form.contentType,
                body: form.body(pcm: pcm.readChunks(in: 0..<Int64(size), chunkLength: .kibibytes(256)), pcmByteCount: size),
                timeout: deadline(pcmByteCount: size), maxResponseBytes: maxResponseBytes)
        }
        switch response.status {
        case 200..<300: break
        case 408, 429, 500...: throw OpenAICompatible.Failure.unavailable(Int(response.status))
        default:
            throw SpeechFailure("The transcription service refused the recording (HTTP \(response.status)).")
        }
        let payload = response.body
        let result = try JSONDecoder().decode(VerboseTranscription.self, from: Data(buffer: payload))
        return Recognition(words: result.spokenWords(), language: language ?? result.language)
    }

    /// The time limit for a recording of `pcmByteCount` bytes of 16 kHz 16-bit mono PCM.
    public func deadline(pcmByteCount: Int) -> Duration {
        timeout + timePerAudioSecond * (Double(pcmByteCount) / Double(AudioDecoder.sampleRate * 2))
    }

    /// `en-US` → `en`: the API takes ISO 639-1 codes.
    public static func isoLanguage(_ tag: String) -> String {
        String(tag.split(separator: "-").first ?? Substring(tag)).lowercased()
    }

    /// The parts of a `verbose_json` answer My Day reads.
    public struct VerboseTranscription: Decodable {
        public struct Word: Decodable {
            public let word: String
            public let start: Double
            public let end: Double
        }
        public struct Segment: Decodable {
            public let start: Double
            public let end: Double
            public let text: String
            public let noSpeechProb: Double?
            public let avgLogprob: Double?

            public enum CodingKeys: String, CodingKey {
                case start, end, text
                case noSpeechProb = "no_speech_prob"
                case avgLogprob = "avg_logprob"
            }

            public var probablySilent: Bool { (noSpeechProb ?? 0) > 0.6 && (avgLogprob ?? 0) < -1 }
        }

        public let text: String?
        public let language: String?
        public let words: [Word]?
        public let segments: [Segment]?

        /// Timed words outside segments the model marks as silent; from segments when a server sends no words.
        public func spokenWords() -> [RecognizedWord] {
            let silent = (segments ?? []).filter(\.probablySilent)
            func isSilent(_ time: Double) -> Bool { silent.contains { time >= $0.start && time < $0.end } }
            if let words, !words.isEmpty {
                return words.filter { !isSilent($0.start) }.compactMap { word in
                    let text = word.word.trimmingCharacters(in: .whitespaces)
                    return text.isEmpty ? nil : RecognizedWord(word: text, start: word.start, end: word.end)
                }
            }
            return (segments ?? []).filter { !$0.probablySilent }.flatMap { segment in
                let tokens = segment.text.split(whereSeparator: \.isWhitespace)
                let step = tokens.isEmpty ? 0 : (segment.end - segment.start) / Double(tokens.count)
                return tokens.enumerated().map { index, token in
                    RecognizedWord(
                        word: String(token), start: segment.start + Double(index) * step,
                        end: segment.start + Double(index + 1) * step)
                }
            }
        }
    }
}

/// The 44-byte header of a 16-bit mono PCM WAV file (RIFF/WAVE, `fmt ` and `data` chunks).
public enum WAVHeader {
    public static func bytes(pcmByteCount: Int, sampleRate: Int) -> [UInt8] {
        var header: [UInt8] = []
        func append(_ text: String) { header += Array(text.utf8) }
        func append32(_ value: Int) { header += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func append16(_ value: Int) { header += withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        append("RIFF")
        append32(36 + pcmByteCount)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(sampleRate)
        append32(sampleRate * 2)  // bytes per second
        append16(2)  // bytes per frame
        append16(16)  // bits per sample
        append("data")
        append32(pcmByteCount)
        return header
    }
}
