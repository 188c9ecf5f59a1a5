import Foundation
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDaySpeech

/// The real ffmpeg and PocketSphinx on synthetic speech.
@Suite(.serialized) struct TranscriptionTests {
    private let folder = TestFolder.make("myday-asr")

    private func file(_ data: Data, _ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test func speechBecomesTimedWords() async throws {
        let recognizer = try PocketSphinxRecognizer()
        let pcm = try await AudioDecoder().decode(
            try file(try await TestSpeech.m4a(TestSpeech.diarySentence), "speech.m4a"), into: folder)
        let told = Mutex<[Double]>([])
        let recognition = try await recognizer.recognize(
            pcmFile: pcm, language: "en-US", prompt: nil, progress: { share in told.withLock { $0.append(share) } })
        let heard = Set(recognition.words.map(\.word))
        let said = Set(TestSpeech.diarySentence.split(separator: " ").map(String.init))
        // A draft recognizer on a synthetic voice: most, not all, of the words
        #expect(Double(heard.intersection(said).count) >= Double(said.count) * 0.6, "heard \(recognition.words.map(\.word))")
        #expect(recognition.words.allSatisfy { $0.end > $0.start && $0.start >= 0 })
        #expect(recognition.words.map(\.start) == recognition.words.map(\.start).sorted())
        // And it told how far it was as it read the audio, up to the whole of it
        let shares = told.withLock { $0 }
        #expect(shares.count > 10 && shares == shares.sorted() && shares.last == 1, "\(shares)")
    }

    @Test(arguments: ["fr-FR", "de", "es-419"])
    func aRecordingInAnotherLanguageIsRefusedNotTurnedIntoEnglish(_ language: String) async throws {
        // Given French speech whose hint says so, and PocketSphinx, which knows only English
        let pcm = try await AudioDecoder().decode(
            try file(try await TestSpeech.m4a("bonjour, je suis allé au marché", voice: "fr"), "french-\(language).m4a"),
            into: folder)
        // Then it fails for good, saying which engine is missing, and invents no English words
        let failure = await #expect(throws: SpeechFailure.self) {
            try await PocketSphinxRecognizer().recognize(pcmFile: pcm, language: language)
        }
        #expect(failure?.description.contains(language) == true)
        #expect(failure?.description.contains("Whisper") == true)
        #expect(failure?.description.contains("Transcribe again") == true)
    }

    @Test func silenceHasNoWords() async throws {
        let recognizer = try PocketSphinxRecognizer()
        let pcm = try await AudioDecoder().decode(try file(try await TestSpeech.silence(seconds: 3), "silence.m4a"), into: folder)
        let recognition = try await recognizer.recognize(pcmFile: pcm, language: nil)
        #expect(recognition.noSpeech, "invented \(recognition.words.map(\.word))")
    }

    @Test func aTranscriptDoesNotDependOnTheRecordingBefore() async throws {
        // Given one decoder that hears the same clip after a loud and after a very quiet recording
        let recognizer = try PocketSphinxRecognizer()
        let decoder = AudioDecoder()
        let clip = try await decoder.decode(
            try file(try await TestSpeech.m4a("call my mother tonight"), "clip.m4a"), into: folder)
        let loud = try await decoder.decode(
            try file(
                try await TestSpeech.m4a("the weather was cold and windy all day long", voice: "en-gb", volume: 4), "loud.m4a"),
            into: folder)
        let quiet = try await decoder.decode(
            try file(try await TestSpeech.m4a("we stayed inside and read", volume: 0.03), "quiet.m4a"), into: folder)

        _ = try await recognizer.recognize(pcmFile: loud, language: nil)
        let afterLoud = try await recognizer.recognize(pcmFile: clip, language: nil)
        _ = try await recognizer.recognize(pcmFile: quiet, language: nil)
        let afterQuiet = try await recognizer.recognize(pcmFile: clip, language: nil)

        // Then it hears the same words at the same times
        #expect(afterLoud == afterQuiet)
        #expect(!afterLoud.noSpeech)
    }

    @Test func undecodableAudioFailsForGood() async throws {
        let garbage = try file(Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }), "garbage.m4a")
        let empty = try file(Data(), "empty.m4a")
        let truncated = try file(try await TestAudio.truncatedM4A(), "truncated.m4a")
        for input in [garbage, empty, truncated] {
            await #expect(throws: SpeechFailure.self) { try await AudioDecoder().decode(input, into: folder) }
        }
    }
}
