import Foundation
import NIOCore
import _NIOFileSystem

/// Recognition that knows a person's own words (names of people and places, rare words).
///
/// A whole long list as the prompt makes Whisper worse (it breaks sentences and still misses names), so: a first pass
/// with no prompt; then, where a stretch of what was heard sounds like one of the person's words, that stretch of the
/// audio (its sentence, at most `longestStretch`) is recognised again with only the words it may hold as the prompt,
/// and its words replace the first pass's when they got one of those words right (`replacing`). The engine writes
/// every word but one kind: a place both hearings wrote alike, as something that sounds the same as the word the
/// second was given ("Rory" twice, for Ruairí), takes the person's spelling (`spelledAsTaught`). At most
/// `secondPassShare` of the recording is heard twice, so a long entry costs little more than one pass.
package struct VocabularyRecognition: Sendable {
    package let recognizer: any SpeechRecognizer
    /// Where the stretches heard again are written while they are recognised.
    package let scratch: URL
    /// How alike a heard stretch and a word must sound, both read by English rules (`SoundsLike.key`), for the stretch
    /// to be heard again.
    package var threshold = 0.7
    /// At most this many of the person's words go in one prompt.
    package var wordsPerPrompt = 5
    /// The share of the recording that may be heard a second time (at least one window), each stretch counted as
    /// at least a window.
    package var secondPassShare = 0.2
    /// The longest stretch heard again, in seconds (Whisper hears 30 s at a time).
    package var longestStretch = 25.0
    /// Below this, a language the engine detected that is not the person's usual one is taken for a guess, and the
    /// recording is heard again in the usual one: Whisper takes a short clip of English for Thai, say, at 0.34.
    package var doubtfulLanguage = 0.5

    package init(recognizer: any SpeechRecognizer, scratch: URL) {
        self.recognizer = recognizer
        self.scratch = scratch
    }

    /// The words of the PCM in `pcmFile`, with `vocabulary` taught where it may help. Without a `language`, the
    /// engine's guess stands unless it doubted it and `usualLanguage` (the person's) is another. `progress` hears the
    /// first pass as the first 90% and the stretches heard again as the rest.
    package func recognize(
        pcmFile: URL, language: String?, usualLanguage: String? = nil, vocabulary: [String],
        progress: @escaping RecognitionProgress = { _ in }
    ) async throws -> Recognition {
        let firstPass: RecognitionProgress = { progress($0 * Self.firstPassShare) }
        var first = try await recognizer.recognize(pcmFile: pcmFile, language: language, prompt: nil, progress: firstPass)
        if language == nil, !first.noSpeech, let usualLanguage,
            first.language.map(OpenAITranscriptionClient.isoLanguage) != usualLanguage,
            let sure = first.languageProbability, sure < doubtfulLanguage
        {
            first = try await recognizer.recognize(pcmFile: pcmFile, language: usualLanguage, prompt: nil, progress: firstPass)
        }
        guard !vocabulary.isEmpty, !first.noSpeech else { return first }
        let stretches = Self.stretches(
            heard: first.words, candidates: VocabularyMatch.find(vocabulary, in: first.words, threshold: threshold),
            longest: longestStretch, wordsPerPrompt: wordsPerPrompt)
        let total = try await FileSystem.shared.info(forFileAt: FilePath(pcmFile.path))?.size ?? 0
        let allowed = max(Self.window, secondPassShare * Double(total) / Double(Self.bytesPerSecond))
        var budget = allowed
        var words = first.words
        for stretch in stretches.sorted(by: { $0.score > $1.score }) {
            // Whisper hears 30 s at a time: a shorter stretch costs a whole window.
            let cost = max(stretch.end - stretch.start, Self.window)
            guard cost <= budget else { continue }
            budget -= cost
            let again = try await hear(stretch, of: pcmFile, language: first.language ?? language)
            words = Self.replacing(in: words, from: stretch.start, to: stretch.end, with: again, teaching: stretch.spots)
            progress(Self.firstPassShare + (1 - Self.firstPassShare) * (allowed - budget) / allowed)
        }
        return Recognition(words: words, language: first.language, languageProbability: first.languageProbability)
    }

    /// A stretch of the recording to hear again, and the words it may hold.
    struct Stretch: Equatable {
        var start: Double
        var end: Double
        var prompt: [String]
        /// The places of the stretch that sounded like a word of the prompt.
        var spots: [Spot]
        var score: Double
    }

    /// A place of the first pass that sounded like one of the person's words: the word, and when it was said.
    struct Spot: Equatable {
        var word: String
        var start: Double
        var end: Double
        var score = 1.0
    }

    static let bytesPerSecond = AudioDecoder.sampleRate * 2
    /// The share of the work `progress` gives the first pass (the second hears at most `secondPassShare` again).
    static let firstPassShare = 0.9
    /// The length of audio Whisper hears at once, whatever it is given.
    static let window = 30.0

    /// Each candidate's sentence (the heard words between end marks around it), cut to `longest` seconds around the
    /// candidate, with a little of the silence on each side; stretches that overlap become one.
    static func stretches(heard: [RecognizedWord], candidates: [VocabularyMatch], longest: Double, wordsPerPrompt: Int)
        -> [Stretch]
    {
        var stretches: [(first: Int, last: Int, spots: [Spot], score: Double)] = []
        for candidate in candidates {
            var first = candidate.range.lowerBound
            var last = candidate.range.upperBound - 1
            let spot = Spot(word: candidate.word, start: heard[first].start, end: heard[last].end, score: candidate.score)
            while first > 0, !endsSentence(heard[first - 1].word), heard[last].end - heard[first - 1].start <= longest {
                first -= 1
            }
            while last + 1 < heard.count, !endsSentence(heard[last].word), heard[last + 1].end - heard[first].start <= longest {
                last += 1
            }
            // Overlapping, or close enough to share one window: one stretch.
            if let index = stretches.firstIndex(where: {
                ($0.first <= last && first <= $0.last)
                    || heard[max(last, $0.last)].end - heard[min(first, $0.first)].start <= longest
            }) {
                stretches[index].first = min(stretches[index].first, first)
                stretches[index].last = max(stretches[index].last, last)
                stretches[index].spots.append(spot)
                stretches[index].score = max(stretches[index].score, candidate.score)
            } else {
                stretches.append((first, last, [spot], candidate.score))
            }
        }
        return stretches.map { stretch in
            let before = stretch.first > 0 ? heard[stretch.first - 1].end : 0
            let after = stretch.last + 1 < heard.count ? heard[stretch.last + 1].start : heard[stretch.last].end + 0.5
            let start = max(before, heard[stretch.first].start - 0.3)
            let end = min(after, heard[stretch.last].end + 0.3)
            var prompt: [String] = []
            for spot in stretch.spots.sorted(by: { $0.score > $1.score }) where !prompt.contains(spot.word) {
                prompt.append(spot.word)
            }
            let chosen = Array(prompt.prefix(wordsPerPrompt))
            return Stretch(
                start: start, end: end, prompt: chosen, spots: stretch.spots.filter { chosen.contains($0.word) },
                score: stretch.score)
        }
    }

    /// `words` with those said within [start, end) replaced by `heardAgain` (its places that sound the same as a
    /// taught word in the person's spelling: `spelledAsTaught`), only when the second hearing wrote one of the taught
    /// words the first did not, wrote none of them more often than the first pass heard something like it there
    /// (`spots`), and kept at least four words in five. A second hearing is there to get a name right; one that found
    /// none, wrote a name twice for one place, or lost words, is not worth the first pass's words.
    static func replacing(
        in words: [RecognizedWord], from start: Double, to end: Double, with heardAgain: [RecognizedWord],
        teaching spots: [Spot]
    ) -> [RecognizedWord] {
        let inside = words.indices.filter { words[$0].start >= start && words[$0].start < end }
        guard let first = inside.first, let last = inside.last, 5 * heardAgain.count >= 4 * inside.count else {
            return words
        }
        let again = spelledAsTaught(heardAgain, at: spots)
        let places = Dictionary(spots.map { (VocabularyMatch.fold($0.word), 1) }, uniquingKeysWith: +)
        let before = Dictionary(inside.map { (VocabularyMatch.fold(words[$0].word), 1) }, uniquingKeysWith: +)
        let written = Dictionary(
            again.map { VocabularyMatch.fold($0.word) }.filter { places[$0] != nil }.map { ($0, 1) }, uniquingKeysWith: +)
        let learned = written.contains { word, count in count > before[word, default: 0] }
        let tooOften = written.contains { word, count in count > places[word, default: 0] + before[word, default: 0] }
        guard learned, !tooOften else { return words }
        return Array(words[..<first]) + again + Array(words[(last + 1)...])
    }

    /// How alike a place heard again must sound to a taught word to take its spelling, the word read by the rules of
    /// the languages names come from too (`SoundsLike.similarity(word:heard:)`: "Kiran" twice for Ciarán).
    static let respelling = 0.85

    /// `again` with each of `spots` the second hearing wrote as something else that sounds like its word (one to three
    /// words, none an everyday word, at least `respelling` alike, said within a quarter second of the spot) written as
    /// the person writes the word, with the heard words' times and punctuation. Heard alike twice, once with the word in
    /// the prompt, the place is the person's word in another spelling: Whisper writes the spelling it knows ("Rory",
    /// "Kiva") even when told the person's (Ruairí, Caoimhe).
    static func spelledAsTaught(_ again: [RecognizedWord], at spots: [Spot]) -> [RecognizedWord] {
        var words = again
        let slack = 0.25
        for spot in spots {
            let target = VocabularyMatch.fold(spot.word)
            let keys = SoundsLike.keys(spot.word, readings: SoundsLike.personalReadings)
            let near = words.indices.filter { words[$0].end > spot.start - slack && words[$0].start < spot.end + slack }
            guard !near.contains(where: { VocabularyMatch.fold(words[$0].word) == target }) else { continue }
            var best: (range: Range<Int>, score: Double)?
            for first in near {
                for length in 1...3 where first + length <= words.count && near.contains(first + length - 1) {
                    let folded = words[first..<first + length].map { VocabularyMatch.fold($0.word) }
                    guard folded.allSatisfy(VocabularyMatch.mayBeAName) else { break }
                    let heard = SoundsLike.keys(folded.joined(), readings: SoundsLike.heardReadings)
                    let score = SoundsLike.similarity(keys: keys, heard)
                    if score >= respelling, score > (best?.score ?? 0) { best = (first..<first + length, score) }
                }
            }
            guard let range = best?.range else { continue }
            let (first, last) = (words[range.lowerBound], words[range.upperBound - 1])
            let leading = first.word.prefix { !$0.isLetter && !$0.isNumber }
            let trailing = last.word.reversed().prefix { !$0.isLetter && !$0.isNumber }.reversed()
            let probabilities = words[range].compactMap(\.probability)
            let respelled = RecognizedWord(
                word: leading + spot.word + String(trailing), start: first.start, end: last.end,
                probability: probabilities.count == range.count ? probabilities.min() : nil)
            words.replaceSubrange(range, with: [respelled])
        }
        return words
    }

    private static func endsSentence(_ word: String) -> Bool { word.last.map { ".!?".contains($0) } ?? false }

    /// The stretch's audio recognised with its prompt, its times moved to the whole recording's. The stretch is heard
    /// with `silenceBefore` and `silenceAfter` of silence around it: Whisper drops the first word of audio that starts
    /// with speech.
    private func hear(_ stretch: Stretch, of pcmFile: URL, language: String?) async throws -> [RecognizedWord] {
        let from = Int64(stretch.start * Double(Self.sampleRate)) * 2
        let count = Int64((stretch.end - stretch.start) * Double(Self.sampleRate)) * 2
        let part = scratch.appendingPathComponent("stretch-\(UUID().uuidString).pcm")
        defer { try? FileManager.default.removeItem(at: part) }
        let bytes = try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(pcmFile.path)) { pcm in
            try await pcm.readChunk(fromAbsoluteOffset: from, length: .bytes(count))
        }
        let before = ByteBuffer(repeating: 0, count: Int(Self.silenceBefore * Double(Self.sampleRate)) * 2)
        let after = ByteBuffer(repeating: 0, count: Int(Self.silenceAfter * Double(Self.sampleRate)) * 2)
        try await FileSystem.shared.withFileHandle(
            forWritingAt: FilePath(part.path), options: .newFile(replaceExisting: true)
        ) { file in
            _ = try await file.write(contentsOf: before, toAbsoluteOffset: 0)
            _ = try await file.write(contentsOf: bytes, toAbsoluteOffset: Int64(before.readableBytes))
            _ = try await file.write(contentsOf: after, toAbsoluteOffset: Int64(before.readableBytes + bytes.readableBytes))
        }
        let heard = try await recognizer.recognize(
            pcmFile: part, language: language, prompt: stretch.prompt.joined(separator: ", "))
        let shift = stretch.start - Self.silenceBefore
        return heard.words.map { word in
            RecognizedWord(
                word: word.word, start: max(stretch.start, word.start + shift),
                end: min(stretch.end, max(stretch.start, word.end + shift)), probability: word.probability)
        }
    }

    /// Silence heard before and after a stretch heard again, in seconds.
    static let silenceBefore = 1.0
    static let silenceAfter = 0.5

    private static var sampleRate: Int { AudioDecoder.sampleRate }
}

/// A stretch of heard words that sounds like one of the person's words.
package struct VocabularyMatch: Sendable, Equatable {
    package let word: String
    /// The heard words, as indices into the recognition's words.
    package let range: Range<Int>
    package let score: Double

    /// For each heard stretch of one to three words that holds a doubtful word (with a letter, not an everyday word,
    /// and heard with less than `sure` probability), the person's word it sounds most like, when alike enough; a stretch already
    /// spelled as the word needs no help. Stretches that overlap keep the better match.
    package static func find(_ vocabulary: [String], in heard: [RecognizedWord], threshold: Double, sure: Double = 0.8)
        -> [VocabularyMatch]
    {
        let words = vocabulary.map { (text: $0, key: SoundsLike.key($0), folded: fold($0)) }.filter { $0.key.count >= 2 }
        guard !words.isEmpty else { return [] }
        let folded = heard.map { fold($0.word) }
        let doubtful = heard.indices.map { index in
            mayBeAName(folded[index]) && (heard[index].probability ?? 0) < sure
        }
        var found: [VocabularyMatch] = []
        let spelled = Set(words.map(\.folded))
        positions: for start in heard.indices {
            var best: VocabularyMatch?
            for length in 1...3 where start + length <= heard.count {
                let spoken = folded[start..<start + length].joined()
                // Already spelled as one of the words (the stretch or any word of it): nothing to hear again here.
                if spelled.contains(spoken) { continue positions }
                if folded[start..<start + length].contains(where: spelled.contains) { continue }
                // Short, or only words heard surely: not a name heard wrongly.
                guard spoken.count >= 3, doubtful[start..<start + length].contains(true) else { continue }
                let key = SoundsLike.key(spoken)
                for word in words {
                    // Lengths far apart cannot be alike enough.
                    guard abs(word.key.count - key.count) <= max(word.key.count, key.count) / 2 else { continue }
                    let score = SoundsLike.similarity(key: word.key, key)
                    if score >= threshold, score > (best?.score ?? 0) {
                        best = VocabularyMatch(word: word.text, range: start..<start + length, score: score)
                    }
                }
            }
            if let best {
                if let last = found.last, last.range.overlaps(best.range) {
                    if best.score > last.score { found[found.count - 1] = best }
                } else {
                    found.append(best)
                }
            }
        }
        return found
    }

    /// Whether a folded heard word may be a name heard wrongly: it has a letter ("4." is no name) and is no everyday
    /// word.
    static func mayBeAName(_ folded: String) -> Bool {
        folded.contains(where: \.isLetter) && !EverydayWords.english.contains(folded)
    }

    /// A word compared with others: case, diacritics and everything but letters and digits left out.
    static func fold(_ word: String) -> String {
        String(
            word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased().filter {
                $0.isLetter || $0.isNumber
            })
    }
}
