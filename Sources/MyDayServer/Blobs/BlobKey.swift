import Foundation

/// Where a blob lives in a blob store: `audio/<user id>/<entry id>`.
enum BlobKey {
    static func audio(userID: UUID, entryID: UUID) -> String {
        "audio/\(userID.lowercased)/\(entryID.lowercased)"
    }

    /// `incoming/<user id>/<entry id>`: where an upload lands until `complete` moves it to the entry's audio key, so
    /// an upload still streaming in can never replace audio that `complete` has checked.
    static func incoming(ofAudio audioKey: String) -> String {
        "incoming/" + audioKey.dropFirst("audio/".count)
    }

    /// `exports/<user id>/<export id>`: an export's archive.
    static func export(userID: UUID, exportID: UUID) -> String {
        "exports/\(userID.lowercased)/\(exportID.lowercased)"
    }

    /// The top-level folders, each with a folder per user.
    static let userAreas = ["audio", "incoming", "exports"]

    /// The folders that hold every blob of one user.
    static func folders(ofUser userID: UUID) -> [String] {
        userAreas.map { "\($0)/\(userID.lowercased)" }
    }

    /// Whether `key` is one this server makes: lowercase letters, digits, `-` and single `/` between parts.
    static func isWellFormed(_ key: String) -> Bool {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 2
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            }
    }
}
