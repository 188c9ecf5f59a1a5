import ChildProcesses
import Foundation
import MyDayTestSupport
import Testing

@testable import ObjectStorage

/// Requests signed here next to the same requests signed by botocore (PyPI, in `.build/python`) at the same moment
/// with the same keys: presigned URLs must be equal character for character, header signatures header for header.
@Suite struct BotocoreComparisonTests {
    static let moment = Date(timeIntervalSince1970: 1_764_064_800)  // 2025-11-25T10:00:00Z
    static let credentials = S3Credentials(accessKeyID: "AKIAMYDAYEXAMPLE", secretAccessKey: "c2VjcmV0L2tleStmb3IvdGVzdHM=")
    static let temporary = S3Credentials(
        accessKeyID: "ASIAMYDAYEXAMPLE", secretAccessKey: "dGVtcG9yYXJ5K2tleQ==", sessionToken: "FwoGZXIvYXdzEJr//token+/=")

    static let local = S3Location(
        bucket: "myday-test", endpoint: URL(string: "http://127.0.0.1:9000")!, region: "us-east-1")
    static let aws = S3Location(bucket: "myday-diaries", endpoint: nil, region: "eu-central-1", keyPrefix: "family/")

    struct Case: Encodable {
        let style: String
        let method: String
        let url: String
        let headers: [[String]]
        var body = ""
        var expires = 0
        let date = "20251125T100000Z"
        let region: String
        let accessKey: String
        let secretKey: String
        let token: String?

        enum CodingKeys: String, CodingKey {
            case style, method, url, headers, body, expires, date, region, token
            case accessKey = "access_key"
            case secretKey = "secret_key"
        }
    }

    struct Answer: Decodable {
        let url: String?
        let headers: [String: String]?
    }

    static func botocore(_ cases: [Case]) async throws -> [Answer] {
        let python = try #require(RepositoryFiles.python, "run scripts/install-python-tools first")
        let input = TestFolder.path("sigv4", ext: "json")
        try JSONEncoder().encode(cases).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let output = try await ChildProcess.run(python.path, [RepositoryFiles.tool("botocore_sign.py").path, input.path])
        try #require(output.status == 0, "\(String(decoding: output.standardError, as: UTF8.self))")
        return try JSONDecoder().decode([Answer].self, from: output.standardOutput)
    }

    static func client(_ location: S3Location, _ credentials: S3Credentials) -> S3Client {
        S3Client(location: location, credentials: credentials, now: { moment })
    }

    @Test func presignedURLsAreBotocores() async throws {
        // Given uploads and downloads as the server presigns them: path-style and virtual-hosted, with a key prefix,
        // a session token, a signed content type and length, and a download name
        let uploads = Self.client(Self.local, Self.credentials)
        let downloads = Self.client(Self.aws, Self.temporary)
        let disposition = "attachment; filename=\"2026-11-25_08-00-00_1a2b3c4d.m4a\""
        let ours = [
            uploads.presignedURL(
                method: "PUT", key: "incoming/5f0c/0a1b",
                headers: [("Content-Type", "audio/mp4"), ("Content-Length", "123456")], expires: 900),
            downloads.presignedURL(
                method: "GET", key: "audio/5f0c/0a1b", query: [("response-content-disposition", disposition)], expires: 3600),
            downloads.presignedURL(method: "GET", key: "exports/5f0c/77aa", expires: 604_800),
        ]

        // When botocore presigns the same requests
        let unsigned = { (url: String) in String(url[..<url.range(of: "X-Amz-Algorithm")!.lowerBound].dropLast()) }
        let answers = try await Self.botocore([
            Case(
                style: "query", method: "PUT", url: unsigned(ours[0]),
                headers: [["Content-Type", "audio/mp4"], ["Content-Length", "123456"]], expires: 900, region: "us-east-1",
                accessKey: Self.credentials.accessKeyID, secretKey: Self.credentials.secretAccessKey, token: nil),
            Case(
                style: "query", method: "GET", url: unsigned(ours[1]), headers: [], expires: 3600, region: "eu-central-1",
                accessKey: Self.temporary.accessKeyID, secretKey: Self.temporary.secretAccessKey,
                token: Self.temporary.sessionToken),
            Case(
                style: "query", method: "GET", url: unsigned(ours[2]), headers: [], expires: 604_800, region: "eu-central-1",
                accessKey: Self.temporary.accessKeyID, secretKey: Self.temporary.secretAccessKey,
                token: Self.temporary.sessionToken),
        ])

        // Then each URL is botocore's, and they are where they should be
        #expect(answers.map(\.url) == ours)
        #expect(ours[0].hasPrefix("http://127.0.0.1:9000/myday-test/incoming/5f0c/0a1b?"))
        #expect(ours[0].contains("X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost"))
        #expect(ours[1].hasPrefix("https://myday-diaries.s3.eu-central-1.amazonaws.com/family/audio/5f0c/0a1b?"))
        #expect(ours[1].contains("response-content-disposition=attachment%3B%20filename%3D%222026"))
    }

    @Test func headerSignaturesAreBotocores() async throws {
        // Given requests the client sends: a listing whose query needs encoding, a deletion of many objects with a
        // body, and an upload with a session token
        let listing = Self.client(Self.local, Self.credentials).signedRequest(
            "GET", key: nil, query: [("list-type", "2"), ("prefix", "audio/"), ("delimiter", "/")], headers: [],
            payloadHash: SigV4Signer.emptyPayloadHash)
        let document = "<Delete><Quiet>true</Quiet><Object><Key>audio/a/b</Key></Object></Delete>"
        let deletion = Self.client(Self.aws, Self.credentials).signedRequest(
            "POST", key: nil, query: [("delete", "")],
            headers: [("Content-Type", "application/xml"), ("Content-MD5", "bWFkZSB1cCBmb3IgdGhlIHRlc3Q=")],
            payloadHash: SHA256Hex.of(document))
        let upload = Self.client(Self.local, Self.temporary).signedRequest(
            "PUT", key: "exports/5f0c/77aa", query: [], headers: [("Content-Type", "application/zip")],
            payloadHash: SHA256Hex.of("zip bytes"))

        // When botocore signs the same requests
        func url(_ location: S3Location, _ request: SignableRequest) -> String { location.url(of: request) }
        let answers = try await Self.botocore([
            Case(
                style: "header", method: "GET", url: url(Self.local, listing), headers: [], region: "us-east-1",
                accessKey: Self.credentials.accessKeyID, secretKey: Self.credentials.secretAccessKey, token: nil),
            Case(
                style: "header", method: "POST", url: url(Self.aws, deletion),
                headers: [["Content-Type", "application/xml"], ["Content-MD5", "bWFkZSB1cCBmb3IgdGhlIHRlc3Q="]],
                body: document, region: "eu-central-1", accessKey: Self.credentials.accessKeyID,
                secretKey: Self.credentials.secretAccessKey, token: nil),
            Case(
                style: "header", method: "PUT", url: url(Self.local, upload), headers: [["Content-Type", "application/zip"]],
                body: "zip bytes", region: "us-east-1", accessKey: Self.temporary.accessKeyID,
                secretKey: Self.temporary.secretAccessKey, token: Self.temporary.sessionToken),
        ])

        // Then the headers botocore adds are ours
        for (request, answer) in zip([listing, deletion, upload], answers) {
            let theirs = try #require(answer.headers)
            for name in ["Authorization", "X-Amz-Date", "X-Amz-Content-SHA256", "X-Amz-Security-Token"] {
                #expect(request.header(name) == theirs[name], "\(name) of \(request.method) \(request.encodedTarget)")
            }
        }
        #expect(answers.count == 3)
    }
}
