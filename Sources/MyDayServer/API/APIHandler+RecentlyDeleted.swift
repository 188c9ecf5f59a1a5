import Foundation
import MyDayAPI

extension APIHandler {
    func listRecentlyDeleted(_ input: Operations.ListRecentlyDeleted.Input) async throws
        -> Operations.ListRecentlyDeleted.Output
    {
        let user = try RequestUser.required()
        let deleted = try await entries.recentlyDeleted(userID: user.id)
        return .ok(
            .init(
                body: .json(
                    .init(
                        entries: deleted.map {
                            .init(entry: Self.schema($0.entry), deletedAt: $0.entry.deletedAt ?? $0.purgeAt, purgeAt: $0.purgeAt)
                        }))))
    }

    func restoreEntry(_ input: Operations.RestoreEntry.Input) async throws -> Operations.RestoreEntry.Output {
        let user = try RequestUser.required()
        guard var entry = try await entries.restore(id: try Validation.id(input.path.id), userID: user.id) else {
            throw APIError.notFound
        }
        // Its transcription stopped when it was deleted.
        if entry.kind == .audio, entry.status == .uploaded || entry.status == .transcribing {
            entry = try await uploads.transcribeRestored(entry, userID: user.id) ?? entry
        }
        return .ok(.init(body: .json(Self.schema(entry))))
    }

    func eraseEntry(_ input: Operations.EraseEntry.Input) async throws -> Operations.EraseEntry.Output {
        let user = try RequestUser.required()
        let erased = try await entries.erase(id: try Validation.id(input.path.id), userID: user.id)
        guard erased.found else { throw APIError.notFound }
        await removeAudio(erased.audioKey)
        return .noContent(.init())
    }
}
