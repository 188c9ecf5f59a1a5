import Foundation
import MyDayModels

/// Where to `PUT` an entry's audio; signed and time-bound.
public struct UploadTarget: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    public var expiresAt: Date

    public init(url: URL, headers: [String: String], expiresAt: Date) {
        self.url = url
        self.headers = headers
        self.expiresAt = expiresAt
    }
}

/// The answer to creating an entry: the entry, and where to upload its audio while the server lacks it.
public struct CreatedEntry: Sendable, Equatable {
    public var entry: ServerEntry
    public var upload: UploadTarget?

    public init(entry: ServerEntry, upload: UploadTarget?) {
        self.entry = entry
        self.upload = upload
    }
}

/// An entry in Recently deleted: hidden everywhere, until `purgeAt`, when it goes for good unless brought back.
public struct DeletedEntry: Sendable, Equatable {
    public var entry: ServerEntry
    public var deletedAt: Date
    public var purgeAt: Date

    public init(entry: ServerEntry, deletedAt: Date, purgeAt: Date) {
        self.entry = entry
        self.deletedAt = deletedAt
        self.purgeAt = purgeAt
    }
}

/// A signed, time-bound link that needs no bearer token.
public struct SignedLink: Sendable, Equatable {
    public var url: URL
    public var expiresAt: Date

    public init(url: URL, expiresAt: Date) {
        self.url = url
        self.expiresAt = expiresAt
    }
}

/// The signed-in person.
public struct Account: Sendable, Equatable, Codable {
    public var id: UUID
    public var email: String
    public var name: String?
    public var hasPassword: Bool
    public var createdAt: Date
    /// Whether the address is confirmed; export links are mailed only to a confirmed address.
    public var emailVerified: Bool

    public init(id: UUID, email: String, name: String?, hasPassword: Bool, createdAt: Date, emailVerified: Bool = false) {
        self.id = id
        self.email = email
        self.name = name
        self.hasPassword = hasPassword
        self.createdAt = createdAt
        self.emailVerified = emailVerified
    }

    private enum CodingKeys: String, CodingKey { case id, email, name, hasPassword, createdAt, emailVerified }

    /// Reads an account kept by an earlier version too, which did not know whether the address was confirmed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id), email: try container.decode(String.self, forKey: .email),
            name: try container.decodeIfPresent(String.self, forKey: .name),
            hasPassword: try container.decode(Bool.self, forKey: .hasPassword),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            emailVerified: try container.decodeIfPresent(Bool.self, forKey: .emailVerified) ?? false)
    }
}

/// The Profile's figures: each entry on its own day, today in the time zone asked in.
public struct DiaryStatistics: Sendable, Equatable {
    public var timeZone: String
    public var totalEntries: Int
    public var totalDuration: TimeInterval
    public var words: Int
    public var currentStreakDays: Int
    public var longestStreakDays: Int
    public var months: [Month]
    /// Audio and export archives kept on the server, and how much the account may keep.
    public var storageUsedBytes: Int64
    public var storageQuotaBytes: Int64

    /// Entries and seconds of one `YYYY-MM`.
    public struct Month: Sendable, Equatable {
        public var month: String
        public var entries: Int
        public var duration: TimeInterval

        public init(month: String, entries: Int, duration: TimeInterval) {
            self.month = month
            self.entries = entries
            self.duration = duration
        }
    }

    public init(
        timeZone: String, totalEntries: Int, totalDuration: TimeInterval, words: Int, currentStreakDays: Int,
        longestStreakDays: Int, months: [Month], storageUsedBytes: Int64 = 0, storageQuotaBytes: Int64 = 0
    ) {
        self.timeZone = timeZone
        self.totalEntries = totalEntries
        self.totalDuration = totalDuration
        self.words = words
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.months = months
        self.storageUsedBytes = storageUsedBytes
        self.storageQuotaBytes = storageQuotaBytes
    }
}

/// An export of a date range and how far it got.
public struct ExportStatus: Sendable, Equatable {
    /// `queued`, `building`, `ready`, `failed` or `expired`.
    public enum State: String, Sendable, Equatable {
        case queued, building, ready, failed, expired
    }

    public var id: UUID
    public var from: String
    public var to: String
    public var state: State
    public var failureReason: String?
    public var entries: Int?
    public var sizeBytes: Int?
    public var downloadURL: URL?
    public var expiresAt: Date?
    /// The account's confirmed address the link is mailed to; nil when it is only shown here.
    public var mailedTo: String?

    public init(
        id: UUID, from: String, to: String, state: State, failureReason: String? = nil, entries: Int? = nil,
        sizeBytes: Int? = nil, downloadURL: URL? = nil, expiresAt: Date? = nil, mailedTo: String? = nil
    ) {
        self.mailedTo = mailedTo
        self.id = id
        self.from = from
        self.to = to
        self.state = state
        self.failureReason = failureReason
        self.entries = entries
        self.sizeBytes = sizeBytes
        self.downloadURL = downloadURL
        self.expiresAt = expiresAt
    }
}

/// A sign-in provider besides email.
public enum IdentityProvider: String, Sendable, CaseIterable {
    case apple, google
}

/// Proof of a recent sign-in, for what needs one (closing the account, an export, a new address): the password, or a
/// fresh Apple or Google sign-in of an identity linked to the account (its token, and Apple's nonce).
public enum SignInProof: Sendable, Equatable {
    case password(String)
    case provider(IdentityProvider, token: String, nonce: String?)
}

/// One way into the account: its password, or a linked Apple or Google account.
public struct SignInMethod: Sendable, Equatable, Identifiable {
    /// What signs in.
    public enum Kind: Sendable, Hashable {
        case password
        case provider(IdentityProvider)
    }

    public var kind: Kind
    /// The address the password goes with, or the one the provider gave.
    public var email: String?
    public var id: Kind { kind }

    public init(kind: Kind, email: String?) {
        self.kind = kind
        self.email = email
    }

    /// "Email and password (me@example.com)", "Google (me@gmail.com)".
    public var label: String {
        let name =
            switch kind {
            case .password: "Email and password"
            case .provider(.apple): "Apple"
            case .provider(.google): "Google"
            }
        return email.map { "\(name) (\($0))" } ?? name
    }
}

/// A word of an entry's text with when it was said, in seconds from the audio's start; a word the person typed has no
/// times.
public struct TimedWord: Sendable, Equatable, Codable {
    public var text: String
    public var start: Double?
    public var end: Double?
    /// How sure the recognizer was, 0 to 1.
    public var probability: Double?

    public init(text: String, start: Double? = nil, end: Double? = nil, probability: Double? = nil) {
        self.text = text
        self.start = start
        self.end = end
        self.probability = probability
    }
}

/// A word of the person's vocabulary and where it came from.
public struct VocabularyWord: Sendable, Equatable, Codable {
    /// `you`: the person's own; `title`, `tag`, `correction`: learned from their writing.
    public enum Source: String, Sendable, Codable, CaseIterable {
        case you, title, tag, correction
    }
    public var text: String
    public var source: Source

    public init(text: String, source: Source) {
        self.text = text
        self.source = source
    }
}

/// One day as the server tells it: its entries (oldest first), its tags (most used first), its mood (the mean, rounded)
/// and a digest of one to three of its own sentences.
public struct DayPage: Sendable, Equatable {
    /// A sentence of one entry, word for word, and the second in its audio where it begins (nil for typed text).
    public struct Sentence: Sendable, Equatable {
        public var text: String
        public var entryID: UUID
        public var start: Double?
        /// Summed up by the server's model from the day's words, not said word for word.
        public var byModel: Bool

        public init(text: String, entryID: UUID, start: Double?, byModel: Bool = false) {
            self.text = text
            self.entryID = entryID
            self.start = start
            self.byModel = byModel
        }
    }

    public var date: String
    public var entries: [ServerEntry]
    public var tags: [String]
    public var mood: Int?
    public var digest: [Sentence]

    public init(date: String, entries: [ServerEntry], tags: [String], mood: Int?, digest: [Sentence]) {
        self.date = date
        self.entries = entries
        self.tags = tags
        self.mood = mood
        self.digest = digest
    }
}

/// A day before a date that holds entries: a week, a month or some years before ("On this day").
public struct PastDay: Sendable, Equatable {
    public enum Unit: String, Sendable, Equatable {
        case week, month, year
    }

    /// `YYYY-MM-DD`.
    public var date: String
    public var unit: Unit
    /// How many weeks, months or years before.
    public var count: Int
    public var entries: [ServerEntry]

    public init(date: String, unit: Unit, count: Int, entries: [ServerEntry]) {
        self.date = date
        self.unit = unit
        self.count = count
        self.entries = entries
    }
}

/// Figures of a span of days: each day with entries, the streaks, and what the entries mention most.
public struct Insights: Sendable, Equatable {
    /// A day with entries: how many, seconds recorded, words, and the mean mood (nil when none was set).
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`.
        public var date: String
        public var entries: Int
        public var seconds: Double
        public var words: Int
        public var mood: Int?

        public init(date: String, entries: Int, seconds: Double, words: Int, mood: Int?) {
            self.date = date
            self.entries = entries
            self.seconds = seconds
            self.words = words
            self.mood = mood
        }
    }

    /// A name or topic of the entries and the number of entries that mention it.
    public struct Mention: Sendable, Equatable, Hashable {
        public var text: String
        public var count: Int

        public init(text: String, count: Int) {
            self.text = text
            self.count = count
        }
    }

    public var from: String
    public var to: String
    public var days: [Day]
    public var currentStreak: Int
    public var longestStreak: Int
    public var people: [Mention]
    public var places: [Mention]
    public var topics: [Mention]

    public init(
        from: String, to: String, days: [Day], currentStreak: Int, longestStreak: Int, people: [Mention] = [],
        places: [Mention] = [], topics: [Mention] = []
    ) {
        self.from = from
        self.to = to
        self.days = days
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.people = people
        self.places = places
        self.topics = topics
    }
}

/// One short question about something the person said in the last days, quoting their words.
public struct DiaryQuestion: Sendable, Equatable {
    public var text: String
    /// Their words it quotes.
    public var phrase: String
    public var entryID: UUID
    /// `YYYY-MM-DD` of that entry.
    public var date: String

    public init(text: String, phrase: String, entryID: UUID, date: String) {
        self.text = text
        self.phrase = phrase
        self.entryID = entryID
        self.date = date
    }
}

/// A browser that gets the daily reminder as a notification: subscribed in the web app, ended here or there.
public struct NotifiedBrowser: Sendable, Equatable, Identifiable {
    public let id: UUID
    /// The push service's host, which names the browser's maker (`fcm.googleapis.com` for Chrome, …).
    public let pushService: String
    public let since: Date

    public init(id: UUID, pushService: String, since: Date) {
        self.id = id
        self.pushService = pushService
        self.since = since
    }

    /// The browser's maker, as people know it, from its push service.
    public var maker: String {
        switch pushService {
        case let host where host.hasSuffix("googleapis.com"): "Chrome or another Chromium browser"
        case let host where host.hasSuffix("mozilla.com"): "Firefox"
        case let host where host.hasSuffix("push.apple.com"): "Safari"
        case let host where host.hasSuffix("notify.windows.com"): "Edge"
        default: "A browser"
        }
    }
}

/// A daily reminder: at `hour`:`minute` in `timeZone`, on `days`, when the day has no entry yet; by mail when `email`.
public struct ReminderSettings: Sendable, Equatable {
    /// Monday first, as the server names them.
    public enum Weekday: String, Sendable, CaseIterable, Comparable {
        case mon, tue, wed, thu, fri, sat, sun

        /// The day's name: "Monday".
        public var name: String {
            switch self {
            case .mon: "Monday"
            case .tue: "Tuesday"
            case .wed: "Wednesday"
            case .thu: "Thursday"
            case .fri: "Friday"
            case .sat: "Saturday"
            case .sun: "Sunday"
            }
        }

        public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var hour: Int
    public var minute: Int
    public var timeZone: String
    public var days: Set<Weekday>
    public var email: Bool

    public init(hour: Int, minute: Int, timeZone: String, days: Set<Weekday>, email: Bool) {
        self.hour = hour
        self.minute = minute
        self.timeZone = timeZone
        self.days = days
        self.email = email
    }

    /// `HH:MM`.
    public var time: String { String(format: "%02d:%02d", hour, minute) }
}

/// What the server suggests for an entry from its own words: a phrase of it as the title, tags, a mood.
public struct Suggestions: Sendable, Equatable {
    public var title: String?
    public var tags: [String]
    public var mood: Int?

    public init(title: String? = nil, tags: [String] = [], mood: Int? = nil) {
        self.title = title
        self.tags = tags
        self.mood = mood
    }
}
