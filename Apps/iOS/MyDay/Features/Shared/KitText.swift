import Foundation

extension String {
    /// MyDayKit's English words in the person's language, looked up in the string catalog; unchanged when it has none.
    ///
    /// A plain lookup, not a format: the words may hold a `%` (a server's sentence, a transcript).
    var localizedForDisplay: String {
        Bundle.main.localizedString(forKey: self, value: self, table: nil)
    }
}
