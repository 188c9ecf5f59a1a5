import Foundation

/// Where this iPhone stands with the speech model iOS 26's `SpeechAnalyzer` needs for the person's language.
public struct SpeechModelState: Equatable, Sendable {
    public enum Status: Equatable, Sendable {
        /// Before iOS 26, or on hardware without `SpeechTranscriber`: there is no model to get.
        case notOffered
        /// iOS has no model for this language.
        case unavailable
        /// iOS has one to download; nothing is downloaded until the person asks.
        case notDownloaded
        /// iOS is downloading it, or waits for a better network to go on; the fraction done when known.
        case downloading(fraction: Double?)
        case ready
    }

    public var status: Status
    /// The language's name in the person's language, e.g. "English (United States)".
    public var language: String

    public static let notOffered = SpeechModelState(status: .notOffered, language: "")

    public init(status: Status, language: String) {
        self.status = status
        self.language = language
    }

    /// The model is on this iPhone, or comes to it once the person asks (or has asked) for it.
    public var isInstalledOrInstallable: Bool {
        switch status {
        case .ready, .notDownloaded, .downloading: true
        case .notOffered, .unavailable: false
        }
    }

    /// `locale`'s name in the person's language, the region included when it has one.
    public static func name(of locale: Locale) -> String {
        Locale.current.localizedString(forIdentifier: locale.identifier) ?? locale.identifier
    }
}
