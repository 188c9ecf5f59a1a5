import AVFoundation
import CoreMedia
import Foundation
import MyDayKit
import Speech

/// iOS 26's `SpeechAnalyzer` with a `SpeechTranscriber`: the model behind Notes and Voice Memos, better on long and
/// distant speech than `SFSpeechRecognizer`. It runs only with a model already on this iPhone; none is downloaded.
@available(iOS 26.0, *)
enum SpeechAnalyzerTranscription {
    /// The words heard in `file` with their times; nil when this iPhone has no installed model for `locale`.
    static func transcribe(_ file: URL, locale: Locale, engine: String, language: String?) async throws -> DeviceTranscript? {
        guard SpeechTranscriber.isAvailable, let model = await installedLocale(equivalentTo: locale) else { return nil }
        let transcriber = SpeechTranscriber(
            locale: model, transcriptionOptions: [], reportingOptions: [], attributeOptions: [.audioTimeRange])
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        try await analyzer.start(inputAudioFile: try AVAudioFile(forReading: file), finishAfterFile: true)
        var text = AttributedString()
        for try await result in transcriber.results {
            text += result.text
        }
        return DeviceTranscript(
            text: String(text.characters), pieces: pieces(of: text), engine: engine, language: language)
    }

    /// Whether a model for `locale` is on this iPhone already.
    static func isInstalled(for locale: Locale) async -> Bool {
        await installedLocale(equivalentTo: locale) != nil
    }

    private static func installedLocale(equivalentTo locale: Locale) async -> Locale? {
        guard let supported = await SpeechTranscriber.supportedLocale(equivalentTo: locale) else { return nil }
        let installed = await SpeechTranscriber.installedLocales
        return installed.contains { $0.identifier(.bcp47) == supported.identifier(.bcp47) } ? supported : nil
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
