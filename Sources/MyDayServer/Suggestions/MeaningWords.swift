import Foundation
import MyDaySearch

/// The words of a person's text as read for what it is about (topics, tags, mood): folded as search folds them, with
/// a negation written short ("wasn't", "didn’t") read as its verb and "not". Search's own words split at the
/// apostrophe, which would make "wasn" a topic and leave "wasn't happy" happy.
enum MeaningWords {
    static func of(_ text: String) -> [String] {
        SearchText.words(in: text.replacing(shortNegation) { _ in " not" })
    }

    /// "n't" or "n’t" closing a word.
    nonisolated(unsafe) private static let shortNegation = /(?i)n['’]t\b/
}
