import MyDaySpeech

/// The language a person speaks to their diary: the one most of their latest recordings were heard in, when at least
/// three of them and three in four were. A recording whose language the engine doubted is heard in it (ADR 0046).
enum UsualLanguage {
    /// How many of the latest recordings are looked at.
    static let recordings = 20

    /// The usual language among `languages` (latest first, as the engine or the client named them), if there is one.
    /// Only ISO 639 codes count: OpenAI's own service names languages in words ("english"), which no engine is told.
    static func of(_ languages: [String]) -> String? {
        let codes = languages.prefix(recordings).map(OpenAITranscriptionClient.isoLanguage).filter { code in
            (2...3).contains(code.count) && code.allSatisfy { $0.isASCII && $0.isLetter }
        }
        let counts = Dictionary(codes.map { ($0, 1) }, uniquingKeysWith: +)
        guard let (code, count) = counts.max(by: { $0.value < $1.value }), count >= 3, count * 4 >= codes.count * 3
        else { return nil }
        return code
    }
}
