import Foundation

/// Fixed values the recorder tests inject in place of clocks, ids and file locations.
enum Fixture {
    static let startDate = Date(timeIntervalSince1970: 1_700_000_000)
    static let timeZone = TimeZone(identifier: "Europe/Zurich")!

    /// The id of the n-th recording, counting from 1.
    static func id(_ number: Int) -> UUID {
        let digits = String(number)
        let padded = String(repeating: "0", count: 12 - digits.count) + digits
        return UUID(uuidString: "00000000-0000-0000-0000-\(padded)")!
    }

    static func file(for id: UUID) -> URL {
        URL(fileURLWithPath: "/recordings/\(id.uuidString).m4a")
    }

    /// The file of the n-th recording, counting from 1.
    static func file(_ number: Int) -> URL {
        file(for: id(number))
    }
}
