import Foundation
import MyDayTestSupport
import ObjectStorage

@testable import MyDayServer

extension TestServer {
    /// A server whose blobs live in the shared loopback bucket, under a key prefix of this test's own; answers it with a
    /// client of that prefix, to look inside.
    static func withBucket(_ database: TestDatabase, adjust: (inout ServerConfiguration) -> Void = { _ in }) async throws -> (
        server: TestServer, bucket: S3Client
    ) {
        let loopback = try await LoopbackBucket.shared()
        let settings = ObjectStorageSettings(
            location: S3Location(
                bucket: loopback.bucket, endpoint: loopback.endpoint, region: "us-east-1", keyPrefix: LoopbackBucket.freshPrefix()
            ),
            credentials: S3Credentials(accessKeyID: loopback.accessKeyID, secretAccessKey: loopback.secretAccessKey))
        let server = try await make(database) {
            $0.objectStorage = settings
            $0.objectStoragePartBytes = 5 * 1024 * 1024
            adjust(&$0)
        }
        return (server, S3Client(location: settings.location, credentials: settings.credentials))
    }
}

extension S3Client {
    /// Every key under this client's prefix, sorted.
    func allKeys() async throws -> [String] {
        try await list(prefix: "").objects.map(\.key).sorted()
    }
}
