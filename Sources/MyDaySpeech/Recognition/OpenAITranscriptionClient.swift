import Foundation
import NIOCore
import NIOFoundationCompat
import _NIOFileSystem

/// Speech-to-text through any OpenAI-compatible `POST /v1/audio/transcriptions` (hosted Whisper,
/// faster-whisper servers, whisper.cpp's server), asking for word timestamps.
///
/// Whisper models can hallucinate text on silence; segments the model itself marks as probably
/// silent (`no_speech_prob` > 0.6 with `avg_logprob` < -1, Whisper's own rule) are dropped.
package struct OpenAITranscriptionClient: SpeechRecognizer {
    /// The server's base URL, without `/v1`.
    package let baseURL: String
    package let model: String
    package let apiKey: String?
    /// How long a transcription may take: `timeout`, plus `timePerAudioSecond` for each second of the recording.
    package var timeout: Duration = .seconds(300)
    package var timePerAudioSecond: Duration = .seconds(3)
    package var maxResponseBytes = 16 * 1024 * 1024

    /// Asks for server-sent events that tell how far the service is (My Day's speech service offers them; other
    /// servers may not, or may send other events).
    package var streamsProgress = false

    package init(baseURL: String, model: String, apiKey: String?) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
    }

    package func recognize(pcmFile: URL, language: String?, prompt: String?, progress: @escaping RecognitionProgress)
        async throws -> Recognition
    {
        var form = TranscriptionForm(
            boundary: "myday-\(UUID().uuidString)", model: model, language: language.map(Self.isoLanguage), prompt: prompt)
        form.stream = streamsProgress
        let result = try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(pcmFile.path)) { pcm in
            let size = Int(try await pcm.info().size)
            let response = try await OpenAICompatible.send(
                baseURL: baseURL, path: "/v1/audio/transcriptions", apiKey: apiKey, contentType: form.contentType,
                body: form.body(pcm: pcm.readChunks(in: 0..<Int64(size), chunkLength: .kibibytes(256)), pcmByteCount: size),
                timeout: deadline(pcmByteCount: size))
            switch response.status.code {
            case 200..<300: break
            case 408, 429, 500...: throw OpenAICompatible.Failure.unavailable(Int(response.status.code))
            default:
                throw SpeechFailure("The transcription service refused the recording (HTTP \(response.status.code)).")
            }
            if response.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true {
                let seconds = Double(size) / Double(AudioDecoder.sampleRate * 2)
                return try await TranscriptionEvents.read(response.body, maxBytes: maxResponseBytes) { end in
                    if seconds > 0 { progress(min(1, end / seconds)) }
                }
            }
            let payload = try await response.body.collect(upTo: maxResponseBytes)
            return try JSONDecoder().decode(VerboseTranscription.self, from: Data(buffer: payload))
        }
        guard let language else {
            return Recognition(
                words: result.spokenWords(), language: result.language, languageProbability: result.languageProbability)
        }
        return Recognition(words: result.spokenWords(), language: language)
    }

    /// The time limit for a recording of `pcmByteCount` bytes of 16 kHz 16-bit mono PCM.
    package func deadline(pcmByteCount: Int) -> Duration {
        timeout + timePerAudioSecond * (Double(pcmByteCount) / Double(AudioDecoder.sampleRate * 2))
    }

    /// `en-US` → `en`: the API takes ISO 639-1 codes.
    package static func isoLanguage(_ tag: String) -> String {
        String(tag.split(separator: "-").first ?? Substring(tag)).lowercased()
    }

    /// The parts of a `verbose_json` answer My Day reads.
    package struct VerboseTranscription: Decodable {
        package struct Word: Decodable {
            package let word: String
            package let start: Double
            package let end: Double
            package let probability: Double?
        }
        package struct Segment: Decodable {
            package let start: Double
            package let end: Double
            package let text: String
            package let noSpeechProb: Double?
            package let avgLogprob: Double?

            package enum CodingKeys: String, CodingKey {
                case start, end, text
                case noSpeechProb = "no_speech_prob"
                case avgLogprob = "avg_logprob"
            }

            package var probablySilent: Bool { (noSpeechProb ?? 0) > 0.6 && (avgLogprob ?? 0) < -1 }
        }

        package let text: String?
        package let language: String?
        /// How sure the engine was of the language it detected (My Day's speech service says; others may not).
        package let languageProbability: Double?
        package let words: [Word]?
        package let segments: [Segment]?

        package enum CodingKeys: String, CodingKey {
            case text, language, words, segments
            case languageProbability = "language_probability"
        }

        /// Timed words outside segments the model marks as silent; from segments when a server sends no words.
        ///
        /// Whisper starts a new word at a space or a punctuation mark, so "ill-disposed" comes as " ill" and
        /// "-disposed", "$5.50" as " $5" and ".50": a piece with no space before it that starts with no letter is put
        /// back onto the word before it, and the text keeps its own spelling. (Pieces that start with a letter stay
        /// words of their own: languages written without spaces have no space before any word.)
        package func spokenWords() -> [RecognizedWord] {
            let silent = (segments ?? []).filter(\.probablySilent)
            func isSilent(_ time: Double) -> Bool { silent.contains { time >= $0.start && time < $0.end } }
            if let words, !words.isEmpty {
                var spoken: [RecognizedWord] = []
                for word in words where !isSilent(word.start) {
                    let text = word.word.trimmingCharacters(in: .whitespaces)
                    guard let first = text.first else { continue }
                    if let previous = spoken.last, word.word.first?.isWhitespace == false, !first.isLetter {
                        spoken[spoken.count - 1] = RecognizedWord(
                            word: previous.word + text, start: previous.start, end: max(previous.end, word.end),
                            probability: Self.lower(previous.probability, word.probability))
                    } else {
                        spoken.append(RecognizedWord(word: text, start: word.start, end: word.end, probability: word.probability))
                    }
                }
                return spoken
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

        /// The less sure of two probabilities: a word is as doubtful as its most doubtful piece.
        private static func lower(_ one: Double?, _ other: Double?) -> Double? {
            switch (one, other) {
            case (let one?, let other?): min(one, other)
            case (let one, nil): one
            case (nil, let other): other
            }
        }
    }
}
