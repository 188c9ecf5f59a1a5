import Crypto
import Foundation
import Testing

@testable import ObjectStorage

/// Cases of the AWS Signature Version 4 test suite (Amazon.com, Inc., Apache License 2.0; the copy in botocore's
/// `tests/unit/auth/aws4_testsuite`): each request with the signature AWS published for it.
@Suite struct SigV4TestSuiteTests {
    static let credentials = S3Credentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var method = "GET"
        var path = "/"
        var query: [(String, String)] = []
        var headers: [(String, String)] = []
        var body = ""
        var sessionToken: String?
        let signedHeaders: String
        let signature: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "get-vanilla", signedHeaders: "host;x-amz-date",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(
            name: "get-vanilla-query-order-key-case", query: [("Param2", "value2"), ("Param1", "value1")],
            signedHeaders: "host;x-amz-date", signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Case(
            name: "get-vanilla-query-order-value", query: [("Param1", "value2"), ("Param1", "value1")],
            signedHeaders: "host;x-amz-date", signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"),
        Case(
            name: "get-vanilla-query-order-encoded", query: [("Param-3", "Value3"), ("Param", "Value2"), ("\u{1234}", "Value1")],
            signedHeaders: "host;x-amz-date", signature: "371d3713e185cc334048618a97f809c9ffe339c62934c032af5a0e595648fcac"),
        Case(
            name: "get-vanilla-query-unreserved",
            query: [
                (
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                )
            ],
            signedHeaders: "host;x-amz-date", signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
        Case(
            name: "get-vanilla-utf8-query", query: [("\u{1234}", "bar")], signedHeaders: "host;x-amz-date",
            signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
        Case(
            name: "get-unreserved", path: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            signedHeaders: "host;x-amz-date", signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
        Case(
            name: "get-utf8", path: "/\u{1234}", signedHeaders: "host;x-amz-date",
            signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        Case(
            name: "get-header-value-trim", headers: [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
            signedHeaders: "host;my-header1;my-header2;x-amz-date",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        Case(
            name: "get-header-key-duplicate",
            headers: [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
            signedHeaders: "host;my-header1;x-amz-date",
            signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        Case(
            name: "get-vanilla-with-session-token",
            sessionToken: "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267",
            signedHeaders: "host;x-amz-date;x-amz-security-token",
            signature: "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
        Case(
            name: "post-vanilla-query", method: "POST", query: [("Param1", "value1")], signedHeaders: "host;x-amz-date",
            signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"),
        Case(
            name: "post-header-key-sort", method: "POST", headers: [("My-Header1", "value1")],
            signedHeaders: "host;my-header1;x-amz-date",
            signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"),
        Case(
            name: "post-x-www-form-urlencoded", method: "POST",
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "Param1=value1",
            signedHeaders: "content-type;host;x-amz-date",
            signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
    ]

    @Test(arguments: cases)
    func signsAsPublished(_ vector: Case) {
        // Given the suite's request, credentials, region, service and moment
        var credentials = Self.credentials
        credentials.sessionToken = vector.sessionToken
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "service")
        var request = SignableRequest(
            method: vector.method, path: vector.path, query: vector.query.map { (name: $0.0, value: $0.1) },
            headers: [("Host", "example.amazonaws.com")] + vector.headers.map { (name: $0.0, value: $0.1) })

        // When it is signed
        signer.sign(&request, payloadHash: SHA256Hex.of(vector.body), at: Self.date)

        // Then the Authorization header is the one AWS published
        #expect(
            request.header("Authorization")
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(vector.signedHeaders), Signature=\(vector.signature)")
        #expect(request.header("X-Amz-Date") == "20150830T123600Z")
    }

    @Test func writesTheCanonicalRequestOfTheSuite() {
        // Given get-vanilla-query-order-encoded, whose canonical request the suite spells out
        let request = SignableRequest(
            method: "GET", path: "/", query: [("Param-3", "Value3"), ("Param", "Value2"), ("\u{1234}", "Value1")],
            headers: [("Host", "example.amazonaws.com"), ("X-Amz-Date", "20150830T123600Z")])

        // When its canonical form is written
        let canonical = SigV4Signer.canonicalRequest(
            request, headers: SigV4Signer.canonicalHeaders(request.headers), payloadHash: SigV4Signer.emptyPayloadHash)

        // Then it reads as the suite's .creq file
        #expect(
            canonical == """
                GET
                /
                %E1%88%B4=Value1&Param=Value2&Param-3=Value3
                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
    }

    @Test func aChangedByteChangesTheSignature() {
        // Given the vanilla request signed, and the same with one header value changed
        let signer = SigV4Signer(credentials: Self.credentials, region: "us-east-1", service: "service")
        var original = SignableRequest(method: "GET", path: "/", headers: [("Host", "example.amazonaws.com")])
        var changed = SignableRequest(method: "GET", path: "/", headers: [("Host", "example.amazonaws.con")])

        // When both are signed
        signer.sign(&original, payloadHash: SigV4Signer.emptyPayloadHash, at: Self.date)
        signer.sign(&changed, payloadHash: SigV4Signer.emptyPayloadHash, at: Self.date)

        // Then the signatures differ
        #expect(original.header("Authorization") != changed.header("Authorization"))
    }

    @Test func credentialsNeverShowTheirSecret() {
        // Given credentials with a secret and a session token, and a signer and client holding them
        let credentials = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "s3cr3t-key", sessionToken: "t0ken")
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "s3")

        // When they are interpolated, described for debugging and dumped
        var dumped = ""
        dump(signer, to: &dumped)
        let shown = ["\(credentials)", String(reflecting: credentials), "\(signer)", String(reflecting: signer), dumped]

        // Then the access key id may show, the secret and the token never do
        for text in shown {
            #expect(text.contains("AKIDEXAMPLE"))
            #expect(!text.contains("s3cr3t-key") && !text.contains("t0ken"), "\(text)")
        }
    }
}

/// SHA-256 of text, in hex.
enum SHA256Hex {
    static func of(_ text: String) -> String { SHA256.hash(data: Data(text.utf8)).hex }
}
