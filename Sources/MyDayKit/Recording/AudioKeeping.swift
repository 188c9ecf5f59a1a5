import Foundation

/// How long a recording's audio stays on this device once the server has confirmed it has it (a person's setting).
public enum AudioKeeping: Sendable, Equatable, Hashable {
    /// Every recording stays on the device.
    case always
    /// A recording's audio is removed this many days after the server confirmed it; 0 removes it at once.
    case days(Int)

    /// The choices the settings offer, the default first.
    public static let choices: [AudioKeeping] = [.days(30), .days(7), .days(365), .always]

    /// What the setting is called beside each choice.
    public var label: String {
        switch self {
        case .always: "Always"
        case .days(let days): days % 365 == 0 ? "\(days / 365) year\(days == 365 ? "" : "s")" : "\(days) days"
        }
    }

    /// Audio the server confirmed before this moment may go; nil when none may.
    func cutoff(now: Date) -> Date? {
        switch self {
        case .always: nil
        case .days(let days): now.addingTimeInterval(-Double(max(0, days)) * 86_400)
        }
    }

    /// The setting as it is stored (a number of days, -1 for always), and read back; an unknown value reads as
    /// the default.
    public var storedValue: Int {
        switch self {
        case .always: -1
        case .days(let days): days
        }
    }

    public init(storedValue: Int?) {
        switch storedValue {
        case nil: self = Self.choices[0]
        case let value? where value < 0: self = .always
        case let value?: self = .days(value)
        }
    }
}
