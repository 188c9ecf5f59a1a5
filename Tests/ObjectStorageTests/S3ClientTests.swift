import AsyncHTTPClient
import Crypto
import Foundation
import MyDayTestSupport
import NIOCore
import Testing

@testable import ObjectStorage

/// The client against a real S3-compatible server on loopback that checks every signature (`LoopbackBucket`); each
/// test works under a key prefix of its own.
@Suite struct S3ClientTests {
    /// A client of the loopback bucket under `prefix` (a fresh one of its own by default).
    static func client(
        secret: String? = nil, prefix: String = LoopbackBucket.freshPrefix(), now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> S3Client {
        let bucket = try await LoopbackBucket.shared()
        return S3Client(
            location: S3Location(bucket: bucket.bucket, endpoint: bucket.endpoint, region: "us-east-1", keyPrefix: prefix),
            credentials: S3Credentials(accessKeyID: bucket.accessKeyID, secretAccessKey: secret ?? bucket.secretAccessKey),
            now: now)
    }

    static func text(_ body: HTTPClientResponse.Body) async throws -> String {
        String(buffer: try await body.collect(upTo: 1 << 20))
    }

    @Test func storesReadsCopiesAndRemovesAnObject() async throws {
        // Given an object stored
        let s3 = try await Self.client()
        try await s3.put("audio/u/e", body: .bytes(ByteBuffer(string: "hello diary")), length: 11, contentType: "audio/mp4")

        // Then it can be looked at, read whole or in part, and copied
        #expect(try await s3.head("audio/u/e")?.size == 11)
        #expect(try await Self.text(s3.get("audio/u/e")) == "hello diary")
        #expect(try await Self.text(s3.get("audio/u/e", range: 6...10)) == "diary")
        try await s3.copy(from: "audio/u/e", to: "audio/u/f")
        #expect(try await Self.text(s3.get("audio/u/f")) == "hello diary")

        // When it is removed, twice
        try await s3.delete("audio/u/e")
        try await s3.delete("audio/u/e")

        // Then it is gone and reading it says so
        #expect(try await s3.head("audio/u/e") == nil)
        await #expect(throws: S3Error.self) { _ = try await s3.get("audio/u/e") }
    }

    @Test func listsFoldersAcrossPagesAndRemovesManyAtOnce() async throws {
        // Given objects in three folders
        let s3 = try await Self.client()
        let keys = ["audio/a/1", "audio/a/2", "audio/b/1", "audio/c/1", "audio/c/2", "exports/a/1"]
        for key in keys { try await s3.put(key, body: .bytes(ByteBuffer(string: key)), length: key.utf8.count) }

        // When they are listed two to a page
        let all = try await s3.list(prefix: "audio/", pageSize: 2)
        let folders = try await s3.list(prefix: "audio/", delimiter: "/", pageSize: 2)

        // Then every page was read, and the folders are named
        #expect(all.objects.map(\.key).sorted() == keys.filter { $0.hasPrefix("audio/") })
        #expect(all.objects.allSatisfy { $0.size == 9 })
        #expect(folders.folders.sorted() == ["audio/a/", "audio/b/", "audio/c/"])

        // When the audio is removed in one request
        try await s3.delete(keys: all.objects.map(\.key))

        // Then only the export is left
        #expect(try await s3.list(prefix: "").objects.map(\.key) == ["exports/a/1"])
    }

    @Test func joinsAMultipartUploadAndAbortsAnother() async throws {
        // Given 11 MiB in parts of 5 MiB (S3's smallest), and an upload that is given up
        let s3 = try await Self.client()
        let bytes = (0..<(11 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        let id = try await s3.startMultipartUpload("exports/u/x", contentType: "application/zip")
        var tags: [String] = []
        for (index, start) in stride(from: 0, to: bytes.count, by: 5 << 20).enumerated() {
            let part = bytes[start..<min(start + (5 << 20), bytes.count)]
            tags.append(
                try await s3.uploadPart(
                    "exports/u/x", uploadID: id, number: index + 1, body: .bytes(ByteBuffer(bytes: part)), length: part.count))
        }
        let abandoned = try await s3.startMultipartUpload("exports/u/y")
        _ = try await s3.uploadPart(
            "exports/u/y", uploadID: abandoned, number: 1, body: .bytes(ByteBuffer(bytes: bytes[0..<1024])), length: 1024)

        // When one is completed and the other aborted
        try await s3.completeMultipartUpload("exports/u/x", uploadID: id, partTags: tags)
        try await s3.abortMultipartUpload("exports/u/y", uploadID: abandoned)

        // Then the first is one object of every byte, in order, and the second left nothing
        #expect(try await s3.head("exports/u/x")?.size == bytes.count)
        let read = try await s3.get("exports/u/x").collect(upTo: 12 << 20)
        #expect(Array(read.readableBytesView) == bytes)
        #expect(try await s3.head("exports/u/y") == nil)
        #expect(try await s3.openMultipartUploads(prefix: "exports/").map(\.key).contains("exports/u/y") == false)
    }

    @Test func listsOpenMultipartUploadsAcrossPages() async throws {
        // Given three uploads begun and not finished
        let s3 = try await Self.client()
        var started: [String] = []
        for name in ["a", "b", "c"] { started.append(try await s3.startMultipartUpload("exports/u/\(name)")) }

        // When they are listed two to a page, then all three are found
        let open = try await s3.openMultipartUploads(prefix: "exports/", pageSize: 2)
        #expect(Set(open.map(\.uploadID)) == Set(started))
        for (name, id) in zip(["a", "b", "c"], started) { try await s3.abortMultipartUpload("exports/u/\(name)", uploadID: id) }
    }

    @Test func aBucketWithADotIsReachedPathStyleOnAWS() {
        let dotted = S3Location(bucket: "my.diaries", endpoint: nil, region: "eu-west-1")
        let plain = S3Location(bucket: "diaries", endpoint: nil, region: "eu-west-1")
        #expect(dotted.addressing == .path && dotted.origin == "https://s3.eu-west-1.amazonaws.com")
        #expect(plain.addressing == .virtualHosted && plain.origin == "https://diaries.s3.eu-west-1.amazonaws.com")
    }

    @Test func bytesThatChangedOnTheWayAreRefused() async throws {
        // Given bytes sent with the MD5 of other bytes, whole and as a part
        let s3 = try await Self.client()
        let otherMD5 = Data(Insecure.MD5.hash(data: Data("other".utf8))).base64EncodedString()
        let id = try await s3.startMultipartUpload("exports/u/x")

        // Then the service refuses both, and stores nothing
        await #expect(throws: S3Error.self) {
            try await s3.put(
                "audio/u/e", body: .bytes(ByteBuffer(string: "hello")), length: 5, headers: [("Content-MD5", otherMD5)])
        }
        await #expect(throws: S3Error.self) {
            _ = try await s3.uploadPart(
                "exports/u/x", uploadID: id, number: 1, body: .bytes(ByteBuffer(string: "hello")), length: 5,
                contentMD5: otherMD5)
        }
        #expect(try await s3.head("audio/u/e") == nil)
        try await s3.abortMultipartUpload("exports/u/x", uploadID: id)
    }

    @Test func whereDeleteObjectsIsMissingEachObjectIsDeleted() async throws {
        // Given a service without DeleteObjects, holding three objects
        let (bucket, server) = try await LoopbackBucket.withoutDeleteObjects()
        defer { server.signal(SIGKILL) }
        let s3 = S3Client(
            location: S3Location(bucket: bucket.bucket, endpoint: bucket.endpoint, region: "us-east-1"),
            credentials: S3Credentials(accessKeyID: bucket.accessKeyID, secretAccessKey: bucket.secretAccessKey))
        let keys = ["audio/u/1", "audio/u/2", "exports/u/1"]
        for key in keys { try await s3.put(key, body: .bytes(ByteBuffer(string: key)), length: key.utf8.count) }

        // When they are removed together, then each is gone
        try await s3.delete(keys: keys)
        #expect(try await s3.list(prefix: "").objects.isEmpty)
    }

    @Test func aWrongSecretIsRefused() async throws {
        // Given a client whose secret is not the bucket's, and an honest one under the same key prefix
        let prefix = LoopbackBucket.freshPrefix()
        let s3 = try await Self.client(secret: "not-the-secret", prefix: prefix)
        let honest = try await Self.client(prefix: prefix)

        // When it stores something, then the server refuses its signature
        let refusal = await #expect(throws: S3Error.self) {
            try await s3.put("audio/u/e", body: .bytes(ByteBuffer(string: "x")), length: 1)
        }
        #expect(refusal?.status == 403 && refusal?.code == "SignatureDoesNotMatch", "\(String(describing: refusal))")
        // And nothing is stored where it wrote
        #expect(try await honest.head("audio/u/e") == nil)
        #expect(try await honest.list(prefix: "").objects.isEmpty)
    }

    @Test func aPresignedUploadTakesExactlyWhatItWasSignedFor() async throws {
        // Given an upload URL signed for 5 bytes of audio/mp4, and one signed two hours ago for a minute
        let s3 = try await Self.client()
        let headers = [(name: "Content-Type", value: "audio/mp4"), (name: "Content-Length", value: "5")]
        let url = s3.presignedURL(method: "PUT", key: "incoming/u/e", headers: headers, expires: 900)
        let stale = s3.presignedURL(
            method: "PUT", key: "incoming/u/e", headers: headers, expires: 60, at: Date().addingTimeInterval(-7200))
        func put(_ url: String, _ body: String, type: String = "audio/mp4") async throws -> UInt {
            var request = HTTPClientRequest(url: url)
            request.method = .PUT
            request.headers.add(name: "Content-Type", value: type)
            request.body = .bytes(ByteBuffer(string: body))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 16)
            return response.status.code
        }

        // When other lengths, another type and the stale URL are tried, then each is refused and nothing is stored
        #expect(try await put(url, "toolong") == 403)
        #expect(try await put(url, "tiny", type: "audio/mp4") == 403)
        #expect(try await put(url, "hello", type: "audio/webm") == 403)
        #expect(try await put(stale, "hello") == 403)
        #expect(try await s3.head("incoming/u/e") == nil)

        // When the signed request is sent, then it is stored
        #expect(try await put(url, "hello") == 200)
        #expect(try await s3.head("incoming/u/e")?.size == 5)

        // And a presigned download names the file as asked
        let download = s3.presignedURL(
            method: "GET", key: "incoming/u/e", query: [("response-content-disposition", "attachment; filename=\"a.m4a\"")],
            expires: 60)
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: download), timeout: .seconds(30))
        #expect(response.headers.first(name: "Content-Disposition") == "attachment; filename=\"a.m4a\"")
        #expect(try await Self.text(response.body) == "hello")
    }
}
