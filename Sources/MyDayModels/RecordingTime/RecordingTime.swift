import Foundation

/// When an audio file was recorded, and where that was read: the container's own tags first, then a date and time in
/// the file's name, then the file's modification time.
public struct RecordingTime: Sendable, Equatable {
    /// Where the time was found, most trustworthy first.
    public enum Source: String, Sendable, Equatable {
        case container
        case filename
        case modified
    }

    public let date: Date
    public let source: Source

    public init(date: Date, source: Source) {
        self.date = date
        self.source = source
    }

    /// The recording time of `file`: a wall-clock time without a zone (a tag or a name) is read in `timeZone`. A tag that
    /// names only the day takes its time of day from the name or the modification time when they fall on that day, else
    /// noon.
    public static func of(_ file: URL, in timeZone: TimeZone) -> RecordingTime {
        let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
        let tagged = (try? FileHandle(forReadingFrom: file)).flatMap { handle in
            defer { try? handle.close() }
            return ContainerTags.recordingTime(in: FileBytes(handle))
        }
        return resolve(tagged: tagged, name: file.lastPathComponent, modified: modified ?? Date(), in: timeZone)
    }

    /// Chooses among what a file's tags, its name and its modification time say, in that order.
    public static func resolve(tagged: TaggedTime?, name: String, modified: Date, in timeZone: TimeZone) -> RecordingTime {
        let named = FilenameTime.parse(name)
        if let tagged {
            switch tagged {
            case .moment(let date): return RecordingTime(date: date, source: .container)
            case .wallClock(let clock): return RecordingTime(date: clock.date(in: timeZone), source: .container)
            case .day(let day):
                let sameDay = [named?.timeOfDay.map { day.at($0).date(in: timeZone) }, modified].compactMap { $0 }
                    .first { WallClock(date: $0, in: timeZone).day == day }
                return RecordingTime(date: sameDay ?? day.at(.noon).date(in: timeZone), source: .container)
            }
        }
        if let named {
            let clock = named.day.at(named.timeOfDay ?? sameDayTime(named.day, modified, timeZone) ?? .noon)
            return RecordingTime(date: clock.date(in: timeZone), source: .filename)
        }
        return RecordingTime(date: modified, source: .modified)
    }

    private static func sameDayTime(_ day: CalendarDay, _ modified: Date, _ timeZone: TimeZone) -> TimeOfDay? {
        let clock = WallClock(date: modified, in: timeZone)
        return clock.day == day ? clock.time : nil
    }
}

/// What a container's tags say of when it was recorded.
public enum TaggedTime: Sendable, Equatable {
    /// An instant (MP4's `mvhd`, Matroska's `DateUTC`, a tag with a zone).
    case moment(Date)
    /// A wall-clock time of an unnamed zone (ID3, RIFF, Vorbis tags without an offset).
    case wallClock(WallClock)
    /// Only the day.
    case day(CalendarDay)
}

/// A day of the Gregorian calendar.
public struct CalendarDay: Sendable, Equatable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A plausible recording day (1970 to 2199) that exists.
    public init?(year: Int, month: Int, day: Int) {
        guard (1970...2199).contains(year), (1...12).contains(month), (1...31).contains(day),
            DateComponents(year: year, month: month, day: day).isValidDate(in: .gregorian(in: .gmt))
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    func at(_ time: TimeOfDay) -> WallClock { WallClock(day: self, time: time) }
}

/// A time of day on a wall clock.
public struct TimeOfDay: Sendable, Equatable {
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = min(second, 59)
    }

    static let noon = TimeOfDay(hour: 12, minute: 0)!
}

/// A day and a time of day, in a zone that is not named.
public struct WallClock: Sendable, Equatable {
    public let day: CalendarDay
    public let time: TimeOfDay

    public init(day: CalendarDay, time: TimeOfDay) {
        self.day = day
        self.time = time
    }

    init(date: Date, in timeZone: TimeZone) {
        let c = Calendar.gregorian(in: timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        day = CalendarDay(year: c.year!, month: c.month!, day: c.day!) ?? CalendarDay(year: 1970, month: 1, day: 1)!
        time = TimeOfDay(hour: c.hour!, minute: c.minute!, second: c.second!)!
    }

    /// The instant this clock showed in `timeZone`; a time a spring-forward skipped is read as the clock after it.
    public func date(in timeZone: TimeZone) -> Date {
        let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute, second: time.second)
        return Calendar.gregorian(in: timeZone).date(from: components) ?? Date(timeIntervalSince1970: 0)
    }
}

extension Calendar {
    /// The Gregorian calendar of `timeZone`.
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
