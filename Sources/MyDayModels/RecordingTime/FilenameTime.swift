/// A date, and a time when there is one, in a recording's file name: `20260312 081500.m4a` (Voice Memos, with or
/// without its `-3A1B2C3D` suffix), `2026-03-12_08-15-00.m4a`, `Recording_20260312_081500.mp3`, `2026-03-12 at
/// 08.15.00.wav`, `REC20260312081500.mp3` or `2026-03-12.ogg`.
public enum FilenameTime {
    /// The first date in `name` (with its time when one follows), or nil when it holds none.
    public static func parse(_ name: String) -> (day: CalendarDay, timeOfDay: TimeOfDay?)? {
        let characters = Array(name)
        for start in characters.indices where start == 0 || !characters[start - 1].isASCIIDigit {
            var scanner = Scanner(characters, at: start)
            if let found = scanner.dateAndTime() { return found }
        }
        return nil
    }

    private struct Scanner {
        let characters: [Character]
        var index: Int

        init(_ characters: [Character], at index: Int) {
            self.characters = characters
            self.index = index
        }

        mutating func dateAndTime() -> (day: CalendarDay, timeOfDay: TimeOfDay?)? {
            guard let year = number(digits: 4) else { return nil }
            let separator = skip(oneOf: "-_.")
            guard let month = number(digits: 2) else { return nil }
            if let separator, !skip(exactly: separator) { return nil }
            guard let day = number(digits: 2), let calendarDay = CalendarDay(year: year, month: month, day: day) else {
                return nil
            }
            let afterDay = index
            if let time = timeOfDay(joined: separator == nil) { return (calendarDay, time) }
            index = afterDay
            return endsHere ? (calendarDay, nil) : nil
        }

        /// `081500`, `08-15-00`, `08.15`, `at 08.15.00`…; digits straight after the day only when the date had no
        /// separators either (`20260312081500`).
        private mutating func timeOfDay(joined: Bool) -> TimeOfDay? {
            let separated = skip(word: " at ") || skip(oneOf: " _T-") != nil
            guard separated || joined else { return nil }
            guard let hour = number(digits: 2) else { return nil }
            let separator = skip(oneOf: "-_.:h")
            guard let minute = number(digits: 2) else { return nil }
            let beforeSeconds = index
            var second = 0
            if separator == nil || skip(exactly: separator!) {
                if let seconds = number(digits: 2) { second = seconds } else { index = beforeSeconds }
            }
            guard endsHere else { return nil }
            return TimeOfDay(hour: hour, minute: minute, second: second)
        }

        private var endsHere: Bool { index >= characters.count || !characters[index].isASCIIDigit }

        private mutating func number(digits: Int) -> Int? {
            guard index + digits <= characters.count else { return nil }
            var value = 0
            for character in characters[index..<(index + digits)] {
                guard let digit = character.asciiDigitValue else { return nil }
                value = value * 10 + digit
            }
            index += digits
            return value
        }

        private mutating func skip(oneOf set: String) -> Character? {
            guard index < characters.count, set.contains(characters[index]) else { return nil }
            index += 1
            return characters[index - 1]
        }

        private mutating func skip(exactly character: Character) -> Bool {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }

        private mutating func skip(word: String) -> Bool {
            let word = Array(word)
            guard index + word.count <= characters.count,
                Array(characters[index..<(index + word.count)]).map({ $0.lowercased() }) == word.map({ $0.lowercased() })
            else { return false }
            index += word.count
            return true
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { asciiDigitValue != nil }

    fileprivate var asciiDigitValue: Int? {
        guard let ascii = asciiValue, (48...57).contains(ascii) else { return nil }
        return Int(ascii) - 48
    }
}
