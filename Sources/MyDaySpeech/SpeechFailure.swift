/// A recording that no retry can turn into words: damaged, empty, or refused by the speech service.
public struct SpeechFailure: Error, CustomStringConvertible, Equatable {
    /// What to tell the person whose recording it is.
    public let description: String

    public init(_ description: String) { self.description = description }
}
