import CPocketSphinx
import Foundation
import PocketSphinxShim
import Synchronization

/// The embedded recognizer: CMU PocketSphinx with Debian's US English model, entirely on this machine.
///
/// Decoders are loaded once (≈ 0.25 s of a processor and 150 MB each) and reused, one per concurrent job, by every
/// recognizer of the process with the same model (a test process runs many servers). Audio is
/// read from disk in small chunks and cut into utterances at silences by the library's voice
/// activity detection, so an hour of audio needs no more memory than a minute. Before each
/// recording a decoder's cepstral mean is reset to the value it had when loaded: otherwise the
/// previous recording would colour the next one's transcript.
package final class PocketSphinxRecognizer: SpeechRecognizer {
    package struct Model: Sendable {
        package var acousticModel = "/usr/share/pocketsphinx/model/en-us/en-us"
        package var languageModel = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"
        package var dictionary = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

        package init() {}
    }

    package enum Failure: Error, CustomStringConvertible {
        case modelMissing(String)
        package var description: String {
            switch self {
            case .modelMissing(let path): "the PocketSphinx model is not at \(path): install pocketsphinx-en-us"
            }
        }
    }

    private let model: Model
    /// Loaded decoders not in use, by their model's files.
    private static let idle = Mutex<[[String]: [Decoder]]>([:])

    package init(model: Model = Model()) throws {
        for path in [model.acousticModel, model.languageModel, model.dictionary]
        where !FileManager.default.fileExists(atPath: path) {
            throw Failure.modelMissing(path)
        }
        self.model = model
    }

    /// Refuses a recording whose language hint is not English: PocketSphinx would turn it into English words.
    /// Its dictionary is fixed: a prompt is not used.
    package func recognize(pcmFile: URL, language: String?, prompt: String?, progress: @escaping RecognitionProgress)
        async throws -> Recognition
    {
        if let language, OpenAITranscriptionClient.isoLanguage(language) != "en" {
            throw SpeechFailure(
                "This recording is in \(language), and this server's only speech engine, PocketSphinx, knows English "
                    + "alone. Once a multilingual engine is set up (the Whisper speech service, or MYDAY_ASR_URL), "
                    + "choose Transcribe again.")
        }
        let model = model
        let words = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<[RecognizedWord], any Error>) in
            // Loading and decoding are blocking C work: they run on a thread of their own, never on the concurrency pool.
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        let files = [model.acousticModel, model.languageModel, model.dictionary]
                        let decoder = try Self.idle.withLock { $0[files]?.popLast() } ?? Decoder(model: model)
                        defer { Self.idle.withLock { $0[files, default: []].append(decoder) } }
                        return try decoder.decode(pcmFile, progress: progress)
                    })
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        return Recognition(words: words, language: "en")
    }

    /// One loaded PocketSphinx decoder; used by one recording at a time.
    package final class Decoder: @unchecked Sendable {
        private let handle: OpaquePointer
        private let initialMean: [Float]
        /// Frames per second of the decoder's word timings (PocketSphinx's default `-frate`).
        private let framesPerSecond = 100.0

        package init(model: Model) throws {
            guard let handle = myday_ps_init(model.acousticModel, model.languageModel, model.dictionary) else {
                throw Failure.modelMissing(model.acousticModel)
            }
            self.handle = handle
            var mean = [Float](repeating: 0, count: Int(myday_ps_cmn_length(handle)))
            myday_ps_cmn_get(handle, &mean)
            initialMean = mean
        }

        deinit { ps_free(handle) }

        /// Words of the raw 16 kHz PCM in `file`, with times from its start; `progress` is told each whole percent.
        package func decode(_ file: URL, progress: RecognitionProgress = { _ in }) throws -> [RecognizedWord] {
            let input = try FileHandle(forReadingFrom: file)
            defer { try? input.close() }
            let totalSamples = max(1, Int(try input.seekToEnd()) / 2)
            try input.seek(toOffset: 0)
            var percentTold = 0
            myday_ps_cmn_set(handle, initialMean)
            var words: [RecognizedWord] = []
            var samplesFed = 0
            var utteranceStart = 0
            var inUtterance = false
            ps_start_utt(handle)
            while let chunk = try input.read(upToCount: 3_200), !chunk.isEmpty {
                chunk.withUnsafeBytes { bytes in
                    let samples = bytes.bindMemory(to: Int16.self)
                    _ = ps_process_raw(handle, samples.baseAddress, samples.count, 0, 0)
                    samplesFed += samples.count
                }
                if samplesFed * 100 / totalSamples > percentTold {
                    percentTold = samplesFed * 100 / totalSamples
                    progress(Double(samplesFed) / Double(totalSamples))
                }
                let speaking = ps_get_in_speech(handle) != 0
                if speaking && !inUtterance {
                    inUtterance = true
                } else if !speaking && inUtterance {
                    // A silence ends the utterance: collect its words and start the next one here.
                    ps_end_utt(handle)
                    words += utteranceWords(offsetSeconds: Double(utteranceStart) / Double(AudioDecoder.sampleRate))
                    ps_start_utt(handle)
                    utteranceStart = samplesFed
                    inUtterance = false
                }
            }
            ps_end_utt(handle)
            words += utteranceWords(offsetSeconds: Double(utteranceStart) / Double(AudioDecoder.sampleRate))
            return words
        }

        /// The words of the utterance just ended. PocketSphinx numbers frames across all utterances
        /// of a decoder's life; the utterance's `<s>` marks where it began.
        private func utteranceWords(offsetSeconds: Double) -> [RecognizedWord] {
            var segments: [(token: String, start: Int32, end: Int32)] = []
            var iterator = ps_seg_iter(handle)
            while let current = iterator {
                var start: Int32 = 0
                var end: Int32 = 0
                ps_seg_frames(current, &start, &end)
                segments.append((ps_seg_word(current).map { String(cString: $0) } ?? "", start, end))
                iterator = ps_seg_next(current)
            }
            guard let base = (segments.first { $0.token == "<s>" } ?? segments.first)?.start else { return [] }
            return segments.compactMap { segment in
                Self.spokenWord(segment.token).map { word in
                    RecognizedWord(
                        word: word, start: offsetSeconds + Double(segment.start - base) / framesPerSecond,
                        end: offsetSeconds + Double(segment.end + 1 - base) / framesPerSecond)
                }
            }
        }

        /// The word a segment stands for, or nil for silence, breath and noise markers (`<sil>`, `[NOISE]`).
        package static func spokenWord(_ token: String) -> String? {
            guard let first = token.first, first != "<", first != "[", first != "+" else { return nil }
            // Alternative pronunciations are marked `word(2)`.
            if let parenthesis = token.firstIndex(of: "("), token.hasSuffix(")") { return String(token[..<parenthesis]) }
            return token
        }
    }
}
