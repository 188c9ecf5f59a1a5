/// A recording that no retry can turn into words: damaged, empty, or refused by the speech service.
package struct SpeechFailure: Error, CustomStringConvertible, Equatable {
    /// What to tell the person whose recording it is.
    package let description: String

    package init(_ description: String) { self.description = description }
}
