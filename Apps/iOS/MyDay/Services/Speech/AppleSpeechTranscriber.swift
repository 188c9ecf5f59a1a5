import Foundation
import MyDayKit
import Speech

/// Transcribes a finished recording on this iPhone, never over the network: with iOS 26's `SpeechAnalyzer` when the
/// language's model is installed, else with `SFSpeechRecognizer` on the device.
///
/// It throws whenever it cannot (no permission, no on-device recognition for the language, a recording longer than
/// `longestRecording`, the task cancelled), and the server transcribes instead.
struct AppleSpeechTranscriber: DeviceTranscriber {
    static let engine = "apple-speech"
    /// Longer recordings go to the server: recognizing a very long file on the device is slow and less reliable.
    static let longestRecording: TimeInterval = 600

    /// Why this iPhone cannot transcribe `locale`'s speech by itself, in words for the Settings section; nil when it
    /// can, with either engine: `SpeechAnalyzer` with `model` installed or installable, or `SFSpeechRecognizer` on the
    /// device.
    static func unavailableReason(for locale: Locale, model: SpeechModelState) -> String? {
        let status = SFSpeechRecognizer.authorizationStatus()
        return DeviceTranscription.unavailableReason(
            permissionDenied: status == .denied || status == .restricted,
            canTranscribe: model.isInstalledOrInstallable || recognizesOnDevice(locale))
    }

    /// Whether `SFSpeechRecognizer` recognizes `locale`'s speech without the network.
    static func recognizesOnDevice(_ locale: Locale) -> Bool {
        SFSpeechRecognizer(locale: locale)?.supportsOnDeviceRecognition ?? false
    }

    func transcribe(_ file: URL, locale: Locale) async throws -> DeviceTranscript {
        if let duration = AudioDuration.of(file), duration > Self.longestRecording {
            throw AppleSpeechError.tooLong
        }
        guard await Self.authorize() else { throw AppleSpeechError.notAuthorized }
        let language = HomeViewModel.languageTag(of: locale)
        if #available(iOS 26.0, *),
            let transcript = try await SpeechAnalyzerTranscription.transcribe(
                file, locale: locale, engine: Self.engine, language: language)
        {
            return transcript
        }
        guard let recognizer = SFSpeechRecognizer(locale: locale), recognizer.supportsOnDeviceRecognition else {
            throw AppleSpeechError.unavailable
        }
        let request = SFSpeechURLRecognitionRequest(url: file)
        request.requiresOnDeviceRecognition = true
        request.shouldReportPartialResults = false
        request.addsPunctuation = true
        let transcript = try await Self.recognize(request, with: recognizer, language: language)
        withExtendedLifetime(recognizer) {}
        return transcript
    }

    private static func authorize() async -> Bool {
        switch SFSpeechRecognizer.authorizationStatus() {
        case .authorized:
            return true
        case .notDetermined:
            return await withCheckedContinuation { continuation in
                SFSpeechRecognizer.requestAuthorization { status in continuation.resume(returning: status == .authorized) }
            }
        default:
            return false
        }
    }

    private static func recognize(
        _ request: SFSpeechURLRecognitionRequest, with recognizer: SFSpeechRecognizer, language: String?
    ) async throws -> DeviceTranscript {
        let recognition = CallbackOnce<DeviceTranscript>()
        return try await recognition.run {
            let task = recognizer.recognitionTask(with: request) { result, error in
                if let result, result.isFinal {
                    recognition.finish(.success(Self.transcript(of: result, language: language)))
                } else if let error {
                    recognition.finish(.failure(error))
                }
            }
            recognition.attach { task.cancel() }
        }
    }

    private static func transcript(of result: SFSpeechRecognitionResult, language: String?) -> DeviceTranscript {
        let best = result.bestTranscription
        let pieces = best.segments.map { segment in
            DeviceTranscript.TimedPiece(
                text: segment.substring, start: segment.timestamp, end: segment.timestamp + segment.duration)
        }
        return DeviceTranscript(text: best.formattedString, pieces: pieces, engine: engine, language: language)
    }
}

/// Why this iPhone did not transcribe a recording; the server does then.
enum AppleSpeechError: Error {
    case tooLong
    case notAuthorized
    case unavailable
}
