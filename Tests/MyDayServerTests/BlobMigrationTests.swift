import ChildProcesses
import Foundation
import MyDayTestSupport
import NIOCore
import ObjectStorage
import Testing

@testable import MyDayServer

/// `myday-server migrate-blobs`, the real executable: a disk store copied into a bucket, resumed, then served from there.
@Suite struct BlobMigrationTests {
    @Test func aDiskStoreMovesIntoABucketAndIsServedFromThere() async throws {
        // Given a server on disk with two completed recordings and an upload not yet completed
        let disk = try await TestServer.make(.sqlite)
        let (entries, session) = try await disk.run { api in
            let session = try await api.register()
            let first = try await api.createUploadedEntry(session)
            let second = try await api.createUploadedEntry(session)
            _ = try await api.createAndUpload(session, try await TestAudio.m4a())
            return ([first, second], session)
        }
        // And an archive larger than one part of a multipart upload (16 MiB)
        let archive = disk.configuration.blobDirectory.appendingPathComponent(
            "exports/\(session.userID)/\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((0..<(17 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }).write(to: archive)
        let onDisk = disk.storedBlobs()
        #expect(onDisk.count == 4)

        // When the blobs are migrated into a bucket
        let (inBucket, bucket) = try await TestServer.withBucket(.sqlite)
        var configuration = disk.configuration
        configuration.objectStorage = inBucket.configuration.objectStorage
        let loopback = try await LoopbackBucket.shared()
        let environment = [
            "MYDAY_DATA_DIR": disk.configuration.dataDirectory.path, "MYDAY_SECRET": disk.configuration.secret ?? "",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "",
        ].merging(loopback.environment(prefix: bucket.location.keyPrefix)) { $1 }
        let executable = try ServerProcess.executable().path
        let first = try await ChildProcess.run(executable, ["migrate-blobs"], environment: environment)

        // Then every blob is there, byte for byte, under the same key
        #expect(first.status == 0, "\(first.text) \(first.errorText)")
        #expect(first.text.contains("Done: 4 copied"))
        #expect(try await bucket.allKeys() == onDisk)
        for key in onDisk {
            let file = try Data(contentsOf: disk.configuration.blobDirectory.appendingPathComponent(key))
            #expect(Data(buffer: try await bucket.get(key).collect(upTo: 1 << 26)) == file)
        }

        // When one copy is damaged and the migration runs again
        try await bucket.put(onDisk[0], body: .bytes(ByteBuffer(string: "damaged")), length: 7)
        let again = try await ChildProcess.run(executable, ["migrate-blobs"], environment: environment)

        // Then only that one is copied again: it is in the bucket with the file's size and bytes
        #expect(again.status == 0 && again.text.contains("Done: 1 copied"), "\(again.text) \(again.errorText)")
        let original = try Data(contentsOf: disk.configuration.blobDirectory.appendingPathComponent(onDisk[0]))
        let repaired = try #require(try await bucket.head(onDisk[0]), "\(onDisk[0]) is not in the bucket")
        #expect(repaired.size == original.count)
        #expect(Data(buffer: try await bucket.get(onDisk[0]).collect(upTo: 1 << 26)) == original)

        // And a server on the same database with the bucket plays the migrated audio
        try await TestServer(configuration: configuration).run { api in
            for id in entries {
                let link = try await api.send(.get, "/v1/entries/\(id)/audio", token: session.accessToken, expecting: .ok)
                let played = try await api.send(.get, try #require(link.json["url"] as? String))
                #expect(played.status == .ok && played.body.count > 1000)
            }
        }
    }

    @Test func withoutABucketItSaysWhatIsMissing() async throws {
        // Given no MYDAY_S3_* settings, when the migration is asked for, then it names the setting and changes nothing
        let folder = TestFolder.path("myday")
        let output = try await ChildProcess.run(
            try ServerProcess.executable().path, ["migrate-blobs"], environment: ["MYDAY_DATA_DIR": folder.path])
        #expect(output.status != 0)
        #expect((output.text + output.errorText).contains("MYDAY_S3_BUCKET"))
    }
}
