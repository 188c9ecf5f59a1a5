import AVFoundation
import CoreMedia
import Foundation
import MyDayKit
import Speech

/// iOS 26's `SpeechAnalyzer` with a `SpeechTranscriber`: the model behind Notes and Voice Memos, better on long and
/// distant speech than `SFSpeechRecognizer`. It runs only with the language's model on this iPhone; the person asks
/// for the download in Settings (`SpeechModelInventory`).
@available(iOS 26.0, *)
enum SpeechAnalyzerTranscription {
    /// The words heard in `file` with their times; nil when this iPhone has no installed model for `locale`.
    ///
    /// Cancelling the task (`ClientCore.transcribeOnDevice` does when its time limit passes) ends the analysis at once
    /// and throws `CancellationError`.
    static func transcribe(_ file: URL, locale: Locale, engine: String, language: String?) async throws -> DeviceTranscript? {
        guard let transcriber = await SpeechModelInventory.installedTranscriber(for: locale) else { return nil }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let text = try await withTaskCancellationHandler {
            try Task.checkCancellation()
            try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: file), finishAfterFile: true)
            var heard = AttributedString()
            for try await result in transcriber.results {
                heard += result.text
            }
            return heard
        } onCancel: {
            Task { await analyzer.cancelAndFinishNow() }
        }
        // A cancelled analysis ends its results early: what it heard by then is not the recording's transcript.
        try Task.checkCancellation()
        return DeviceTranscript(
            text: String(text.characters), pieces: pieces(of: text), engine: engine, language: language)
    }

    /// The runs of the result with the stretch of audio each was heard in; a run without one (spacing,
    /// punctuation) takes the moment the run before it ended.
    private static func pieces(of text: AttributedString) -> [DeviceTranscript.TimedPiece] {
        var pieces: [DeviceTranscript.TimedPiece] = []
        var lastEnd = 0.0
        for run in text.runs {
            let start = run.audioTimeRange?.start.seconds ?? lastEnd
            let end = run.audioTimeRange?.end.seconds ?? lastEnd
            pieces.append(.init(text: String(text[run.range].characters), start: start, end: end))
            lastEnd = end
        }
        return pieces
    }
}
