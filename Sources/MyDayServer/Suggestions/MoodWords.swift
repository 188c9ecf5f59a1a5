/// How the words of an entry feel, from a small English list of words that carry a feeling (-3 to 3), with "not"
/// and "never" softening and turning around a word up to three words after them. At least `fewest` feeling words are
/// needed for a mood.
enum MoodWords {
    static let fewest = 2

    /// 1 (low) to 5 (great), or nil when too few words carry a feeling.
    static func mood(of words: [String]) -> Int? {
        var total = 0.0
        var counted = 0
        for (index, word) in words.enumerated() {
            guard let value = valence[word] else { continue }
            // Any of the three words before it, as VADER reads a negation: "not have a good time".
            let negated = words[max(0, index - 3)..<index].contains { ["not", "never", "no", "nothing"].contains($0) }
            total += negated ? -value * 0.5 : value
            counted += 1
        }
        guard counted >= fewest else { return nil }
        let mean = total / Double(counted)
        // -3…3 onto 1…5.
        return min(5, max(1, Int((3 + mean * 2 / 3).rounded())))
    }

    static let valence: [String: Double] = [
        "amazing": 3, "wonderful": 3, "fantastic": 3, "brilliant": 3, "love": 3, "loved": 3, "joy": 3, "thrilled": 3,
        "happy": 2.5, "great": 2.5, "excellent": 2.5, "delighted": 2.5, "beautiful": 2.5, "lovely": 2.5, "excited": 2,
        "good": 2, "glad": 2, "fun": 2, "proud": 2, "grateful": 2, "relaxed": 2, "calm": 1.5, "nice": 1.5, "enjoyed": 2,
        "laughed": 2, "laughing": 2, "peaceful": 2, "hopeful": 1.5, "better": 1.5, "fine": 1, "okay": 0.5, "relieved": 1.5,
        "sad": -2.5, "unhappy": -2.5, "awful": -3, "terrible": -3, "horrible": -3, "miserable": -3, "hate": -3,
        "angry": -2.5, "upset": -2, "worried": -2, "anxious": -2, "stressed": -2, "stressful": -2, "tired": -1.5,
        "exhausted": -2, "lonely": -2.5, "bad": -2, "worse": -2, "worst": -3, "cried": -2, "crying": -2, "hurt": -2,
        "sick": -1.5, "ill": -1.5, "pain": -2, "frustrated": -2, "annoyed": -1.5, "disappointed": -2, "scared": -2,
        "afraid": -2, "boring": -1.5, "bored": -1.5, "difficult": -1.5, "hard": -1, "lost": -1.5, "missed": -1,
        "cold": -0.5, "rain": -0.5,
    ]
}
