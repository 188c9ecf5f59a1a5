import Foundation
import MyDaySearch
import MyDaySpeech

/// One short question about something the person said in the last days ("Yesterday you mentioned “the interview
/// with Sam”. How did it go?"): the phrase is their own words, from a sentence that speaks of something ahead (a plan,
/// an appointment, "tomorrow"); nothing is asked about what they did not say, nor about what they wrote about since.
enum GentleQuestion {
    /// The question, and what it was built from.
    struct Question: Sendable, Equatable {
        let text: String
        /// Their words the question quotes, verbatim.
        let phrase: String
        let entryID: UUID
        let day: LocalDay
    }

    /// One entry of the last days.
    struct Source: Sendable {
        let entryID: UUID
        let day: LocalDay
        let createdAt: Date
        let text: String
    }

    /// How many days back a question may look (yesterday first).
    static let daysBack = 3

    /// Words that mark a sentence about something ahead, worth asking after ("the interview went well" looks back).
    static let ahead: Set<String> = [
        "tomorrow", "tonight", "later", "will", "going", "plan", "plans", "planning", "hoping", "hope", "nervous",
        "worried", "soon", "next", "upcoming",
    ]

    /// The question for `today`, from entries of the days before it (any order); nil when none of them looks ahead.
    static func make(from entries: [Source], today: LocalDay) -> Question? {
        let recent = entries.filter { $0.day < today && $0.day >= today.adding(days: -daysBack) }
            .sorted { $0.createdAt > $1.createdAt }
        for source in recent {
            for sentence in DayDigest.split(source.text).reversed() {
                let words = Set(SearchText.words(in: sentence))
                guard !words.isDisjoint(with: ahead), let phrase = ownPhrase(in: sentence) else { continue }
                // Written about since? Then there is nothing to ask.
                let content = Set(SearchText.words(in: phrase)).subtracting(EverydayWords.english)
                let later = entries.filter { $0.createdAt > source.createdAt }
                if later.contains(where: { !content.isDisjoint(with: SearchText.words(in: $0.text)) }) { continue }
                return Question(
                    text: "\(when(source.day, today: today)) you mentioned “\(phrase)”. How did it go?", phrase: phrase,
                    entryID: source.entryID, day: source.day)
            }
        }
        return nil
    }

    /// The sentence's most telling phrase (as titles are chosen), as the sentence writes it.
    private static func ownPhrase(in sentence: String) -> String? {
        guard let title = EntrySuggestions.title(of: sentence),
            let range = sentence.range(of: title, options: [.caseInsensitive, .diacriticInsensitive])
        else { return nil }
        let phrase = String(sentence[range])
        return phrase.split(whereSeparator: \.isWhitespace).count >= 2 ? phrase : nil
    }

    private static func when(_ day: LocalDay, today: LocalDay) -> String {
        if day == today.adding(days: -1) { return "Yesterday" }
        let names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        return "On \(names[day.isoWeekday - 1])"
    }
}
