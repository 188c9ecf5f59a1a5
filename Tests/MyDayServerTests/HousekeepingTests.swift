import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// The periodic clean-up (ADR 0020, ADR 0021): abandoned uploads, blob folders of gone accounts, old outbox mail,
/// each run on demand with a clock moved forward instead of waiting for its hour.
@Suite struct HousekeepingTests {
    @Test(arguments: TestDatabase.available)
    func anUploadThatNeverCameIsRemovedWithItsBytesAndARetryBringsItBack(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database)
        try await server.run { api in
            let session = try await api.register()
            let audio = try await TestAudio.m4a()
            // Given an entry whose bytes arrived but which was never completed, and one with nothing at all
            let stalled = try await api.createAndUpload(session, audio)
            let empty = UUID()
            _ = try await api.createAudioEntry(session, id: empty, sizeBytes: audio.count)
            let cursor = try #require(
                try await api.send(.get, "/v1/entries", token: session.accessToken).json["next_cursor"] as? String)
            #expect(server.storedBlobs().contains { $0.hasPrefix("incoming/") })

            // When housekeeping runs before the upload URLs expired, nothing happens
            let lifetime = server.configuration.uploadURLLifetime.seconds
            let early = try await server.withHousekeeping { try await $0.sweepAbandonedUploads(now: Date()) }
            #expect(early == 0)
            // When it runs after they expired (and the margin for uploads still streaming)
            let later = Date().addingTimeInterval(lifetime + HousekeepingService.uploadGrace + 60)
            let swept = try await server.withHousekeeping { try await $0.sweepAbandonedUploads(now: later) }
            // Then both are gone, with their bytes, other devices learn it, and the quota no longer counts them
            #expect(swept == 2)
            #expect(try await api.send(.get, "/v1/entries/\(stalled)", token: session.accessToken).status == .notFound)
            #expect(!server.storedBlobs().contains { $0.hasPrefix("incoming/") })
            let delta = try await api.send(.get, "/v1/entries?since=\(cursor)", token: session.accessToken).json
            #expect(Set(delta["deleted_ids"] as? [String] ?? []) == [stalled.lowercased, empty.lowercased])
            #expect(try await api.send(.get, "/v1/me/stats", token: session.accessToken).json["storage_used_bytes"] as? Int == 0)

            // When the phone, back after days, sends the same recording again, it is taken as new and completes
            let again = try await api.createAudioEntry(session, id: stalled, sizeBytes: audio.count)
            #expect(again.reply.status == .ok, "\(again.reply.text)")
            let uploaded = try await api.upload(try #require(again.uploadURL), audio)
            #expect(uploaded.status == .noContent)
            let completed = try await api.send(.post, "/v1/entries/\(stalled)/complete", token: session.accessToken)
            #expect(completed.json["status"] as? String == "uploaded", "\(completed.text)")
            // But an entry its owner deleted stays deleted
            try await api.send(.delete, "/v1/entries/\(stalled)", token: session.accessToken, expecting: .noContent)
            #expect(try await api.createAudioEntry(session, id: stalled, sizeBytes: audio.count).reply.status == .conflict)
        }
    }

    @Test func foldersOfGoneAccountsAndOldMailAreRemovedAndNothingElse() async throws {
        let server = try await TestServer.make(.sqlite)
        try await server.run { api in
            let session = try await api.register()
            try await api.createUploadedEntry(session)
            // Given a folder of an account the database no longer has (an archive finished after its deletion, say)
            let gone = UUID().lowercased
            let strayFolder = server.configuration.blobDirectory.appendingPathComponent("exports/\(gone)")
            try FileManager.default.createDirectory(at: strayFolder, withIntermediateDirectories: true)
            try Data("stray".utf8).write(to: strayFolder.appendingPathComponent(UUID().lowercased))
            // And an outbox with a mail older than the longest link, and a recent one
            let outbox = server.configuration.outboxDirectory
            try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
            let old = outbox.appendingPathComponent("old.eml")
            let recent = outbox.appendingPathComponent("recent.eml")
            try Data("old".utf8).write(to: old)
            try Data("recent".utf8).write(to: recent)
            let longAgo = Date().addingTimeInterval(-server.configuration.exportLinkLifetime.seconds - 3600)
            try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: old.path)

            // When a round runs
            try await server.withHousekeeping { try await $0.round() }

            // Then the stray folder and the old mail are gone; the account's audio and the recent mail stay
            #expect(!FileManager.default.fileExists(atPath: strayFolder.path))
            #expect(server.storedBlobs().contains { $0.hasPrefix("audio/\(session.userID)/") })
            #expect(!FileManager.default.fileExists(atPath: old.path))
            #expect(FileManager.default.fileExists(atPath: recent.path))
        }
    }
}
