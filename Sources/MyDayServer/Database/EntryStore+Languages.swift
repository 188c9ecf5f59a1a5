import Foundation
import SQLKit

extension EntryStore {
    /// The languages the person's latest transcribed recordings were heard in, latest first, leaving out `entryID`
    /// (the recording being heard now); at most `UsualLanguage.recordings`.
    func recentLanguages(userID: UUID, excluding entryID: UUID) async throws -> [String] {
        try await driver.read { db in
            try await db.raw(
                """
                SELECT language FROM entries
                WHERE user_id = \(bind: userID.lowercased) AND deleted_at IS NULL AND kind = 'audio'
                    AND status = 'transcribed' AND language IS NOT NULL AND id <> \(bind: entryID.lowercased)
                ORDER BY created_at DESC LIMIT \(literal: UsualLanguage.recordings)
                """
            ).all().map { try $0.decode(column: "language", as: String.self) }
        }
    }
}
