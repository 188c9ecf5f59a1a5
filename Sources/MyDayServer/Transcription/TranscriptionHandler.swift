import Foundation
import Logging
import MyDayModels
import MyDaySpeech
import SQLKit

/// Runs `transcribe` jobs: audio → 16 kHz PCM → words (with the person's vocabulary) → clean text, stored on the entry.
/// Running a job twice stores the same transcript once more; the raw words are always kept.
struct TranscriptionHandler: JobHandler {
    static let kind = "transcribe"
    var kind: String { Self.kind }

    let entries: EntryStore
    /// The person's own words, taught to the recognizer where they may have been said.
    let vocabulary: VocabularyStore
    let blobs: any BlobStore
    let decoder: AudioDecoder
    let recognizer: any SpeechRecognizer
    let cleaner: any TranscriptCleaner
    let timeLimit: TranscriptionTimeLimit
    /// Where decoded PCM lives while it is recognised.
    let scratch: URL
    let metrics: PipelineMetrics
    let logger: Logger

    func run(_ job: JobRecord) async throws -> JobCompletion {
        let payload = try TranscriptionJob.decode(job.payload)
        guard let entry = try await entries.startTranscribing(id: payload.entryID), let key = entry.audioKey else {
            // Deleted meanwhile: nothing to do.
            return { _ in }
        }
        let transcript: Transcript
        let limit = timeLimit.forAudio(seconds: min(entry.durationSeconds, decoder.maxSeconds))
        do {
            transcript = try await withTimeLimit(limit) {
                if let heard = payload.clientTranscript {
                    try await clean(heard, of: entry)
                } else {
                    try await recognizeAndClean(entry, key: key)
                }
            }
        } catch let failure as SpeechFailure {
            throw JobFailure.permanent(failure.description)
        } catch is TimeLimitExceeded {
            throw JobFailure.permanent(
                "Transcribing took longer than its limit of \(spokenLength(seconds: Int(limit.seconds))); "
                    + "the server may be too busy. Try Transcribe again later.")
        }
        return { db in try await EntryStore.storeTranscript(transcript, entryID: entry.id, userID: entry.userID, in: db) }
    }

    /// The server's own way: decode the audio, recognise it, clean the words.
    private func recognizeAndClean(_ entry: EntryRecord, key: String) async throws -> Transcript {
        let started = ContinuousClock.now
        let pcm = try await blobs.withLocalFile(key: key) {
            try await decoder.decode($0, container: entry.contentType.flatMap(AudioContainer.init(rawValue:)), into: scratch)
        }
        defer { try? FileManager.default.removeItem(at: pcm) }
        let decoded = ContinuousClock.now
        let words = try await vocabulary.words(userID: entry.userID).map(\.text)
        let usual =
            entry.language == nil
            ? UsualLanguage.of(try await entries.recentLanguages(userID: entry.userID, excluding: entry.id)) : nil
        let recognition = try await TranscriptionProgressWriter(entries: entries, entry: entry, logger: logger).whileHeard {
            progress in
            try await VocabularyRecognition(recognizer: recognizer, scratch: scratch).recognize(
                pcmFile: pcm, language: entry.language, usualLanguage: usual, vocabulary: words, progress: progress)
        }
        let recognized = ContinuousClock.now
        let clean = recognition.noSpeech ? "" : try await cleaner.clean(recognition)
        metrics.recordStage("decode", decoded - started)
        metrics.recordStage("recognize", recognized - decoded)
        metrics.recordStage("clean", ContinuousClock.now - recognized)
        logger.info(
            "entry transcribed",
            metadata: [
                "entry": "\(entry.id.lowercased)", "words": "\(recognition.words.count)",
                "decode_ms": "\((decoded - started).milliseconds)",
                "recognize_ms": "\((recognized - decoded).milliseconds)",
                "clean_ms": "\((ContinuousClock.now - recognized).milliseconds)",
            ])
        return Transcript(
            raw: recognition.rawText, clean: clean,
            words: recognition.words, language: recognition.language ?? entry.language, noSpeech: recognition.noSpeech,
            reviewReason: TranscriptReview.reason(words: recognition.words, clean: clean, seconds: entry.durationSeconds))
    }

    /// The client recognised the audio itself: only the cleaning runs here.
    private func clean(_ heard: ClientTranscript, of entry: EntryRecord) async throws -> Transcript {
        let started = ContinuousClock.now
        let recognition = Recognition(words: heard.words, language: heard.language ?? entry.language)
        let clean = recognition.noSpeech ? "" : try await cleaner.clean(recognition)
        metrics.recordStage("clean", ContinuousClock.now - started)
        logger.info(
            "entry transcribed",
            metadata: [
                "entry": "\(entry.id.lowercased)", "words": "\(heard.words.count)", "recognized_by": "\(heard.engine)",
                "clean_ms": "\((ContinuousClock.now - started).milliseconds)",
            ])
        return Transcript(
            raw: heard.text, clean: clean, words: heard.words, language: recognition.language,
            noSpeech: recognition.noSpeech,
            reviewReason: TranscriptReview.reason(words: heard.words, clean: clean, seconds: entry.durationSeconds))
    }

    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws {
        let payload = try TranscriptionJob.decode(job.payload)
        try await EntryStore.markFailed(entryID: payload.entryID, reason: reason, in: db)
    }
}

/// A finished transcription as the entry stores it.
struct Transcript: Sendable {
    let raw: String
    let clean: String
    let words: [RecognizedWord]
    let language: String?
    let noSpeech: Bool
    /// Why the words may be wrong; nil when they look sound.
    let reviewReason: String?
}
