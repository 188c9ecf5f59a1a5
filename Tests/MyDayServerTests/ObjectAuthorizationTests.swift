import Crypto
import Foundation
import HTTPTypes
import MyDayAPI
import MyDayTestSupport
import Testing
import Yams

@testable import MyDayServer

/// For every operation in `openapi.yaml`, user B naming user A's objects gets 404 (or, for signed
/// blob URLs, 403) and A's data stays as it was. The operations come from the document, so a new
/// route is covered the day it is added; one whose path names no object must be listed below.
@Suite struct ObjectAuthorizationTests {
    /// Operations whose paths name no object: another user's ids cannot be put in them.
    static let operationsWithoutObjectIDs: Set<String> = [
        "registerWithEmail", "loginWithEmail", "signInWithApple", "signInWithGoogle", "refreshSession", "logout", "logoutAll",
        "getMe", "getStats", "deleteMe", "changePassword", "removePassword", "createExport", "listExports", "listIdentities",
        "linkIdentity",
        "unlinkIdentity", "createEntry",
        "listEntries",
        "health",
        "readiness", "metrics", "openAPIDocument", "getConfig", "registerOnWeb", "loginOnWeb", "refreshOnWeb", "logoutOnWeb",
        "signInWithAppleOnWeb", "signInWithGoogleOnWeb", "forgotPassword", "resetPassword", "resetPasswordOnWeb",
        "verifyEmail", "resendVerificationEmail", "followChanges", "searchEntries", "getVocabulary", "replaceVocabulary",
        "getDay", "getOnThisDay", "getInsights", "getReminder", "setReminder", "deleteReminder", "stopReminders",
        "getQuestion", "listPushSubscriptions", "addPushSubscription", "listRecentlyDeleted", "changeEmail",
        "appSiteAssociation",
    ]
    /// Operations that answer a stream that does not end: ChangeFeedTests reads them as a client does.
    static let streams: Set<String> = ["followChanges"]

    struct Operation: CustomStringConvertible, Sendable {
        let id: String
        let method: HTTPRequest.Method
        let path: String
        let usesBearerToken: Bool
        /// A JSON body that satisfies the operation's schema, if it takes one.
        let body: Data?
        var description: String { "\(method) \(path) (\(id))" }
    }

    @Test func theServersPublicOperationsAreTheDocuments() throws {
        let documented = try PublicOperations.inDocument()
        #expect(documented.isSuperset(of: PublicOperations.outsideTheAPIClient))
        #expect(BearerAuthMiddleware.publicOperations == documented.subtracting(PublicOperations.outsideTheAPIClient))
        #expect(BearerAuthMiddleware.optionallyAuthenticatedOperations.isSubset(of: documented))
    }

    /// Every operation of the document, with a valid example body built from its schema.
    static func operations() throws -> [Operation] {
        let document = try #require(
            try Yams.load(yaml: String(decoding: try OpenAPIDocument.yaml(), as: UTF8.self)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let schemas = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
        let globalSecurity = !((document["security"] as? [Any]) ?? []).isEmpty
        var operations: [Operation] = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            for (method, value) in item where ["get", "put", "post", "patch", "delete", "head"].contains(method) {
                let operation = try #require(value as? [String: Any])
                let security = (operation["security"] as? [Any]).map { !$0.isEmpty } ?? globalSecurity
                let content = ((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])
                let schema = (content?["application/json"] as? [String: Any])?["schema"]
                operations.append(
                    Operation(
                        id: try #require(operation["operationId"] as? String), method: HTTPRequest.Method(method.uppercased())!,
                        path: path, usesBearerToken: security,
                        body: try schema.map { try JSONSerialization.data(withJSONObject: example(of: $0, schemas: schemas)) }))
            }
        }
        return operations
    }

    /// A value that satisfies `schema`, with every property filled in.
    static func example(of schema: Any, schemas: [String: Any]) -> Any {
        guard var schema = schema as? [String: Any] else { return "x" }
        if let reference = schema["$ref"] as? String, let target = schemas[String(reference.split(separator: "/").last!)] {
            schema = target as? [String: Any] ?? [:]
        }
        if let options = schema["enum"] as? [Any], let first = options.first { return first }
        // The document's own example, where a value must mean something (a time zone checked before the object is)
        if let example = schema["example"] { return example }
        switch schema["type"] as? String {
        case "object":
            let properties = schema["properties"] as? [String: Any] ?? [:]
            return properties.mapValues { example(of: $0, schemas: schemas) }
        case "array": return [example(of: schema["items"] ?? [:], schemas: schemas)]
        case "integer": return max(schema["minimum"] as? Int ?? 1, 1)
        case "number": return 1
        case "boolean": return false
        case "string" where schema["format"] as? String == "date-time": return "2026-05-01T08:30:00Z"
        default: return "x"
        }
    }

    @Test(arguments: TestDatabase.available)
    func anotherUsersObjectIdsAnswer404AndChangeNothing(_ database: TestDatabase) async throws {
        let operations = try Self.operations()
        try await TestServer.make(database, adjust: { $0.pushServices = ["127.0.0.1"] }).run { api in
            // Given A's transcribable audio entry, and B with a signed upload URL of B's own
            let alice = try await api.register("alice@example.com")
            let entryID = UUID()
            try await api.createUploadedEntry(alice, id: entryID)
            let entryPath = "/v1/entries/\(entryID.uuidString.lowercased())"
            let export = try await api.send(
                .post, "/v1/exports", token: alice.accessToken, json: ["from": "2026-05-01", "to": "2026-05-01", "tz": "UTC"])
            let exportID = try #require(export.json["id"] as? String)
            let browser = P256.KeyAgreement.PrivateKey().publicKey.x963Representation.base64URLEncodedString()
            let subscribed = try await api.send(
                .post, "/v1/me/push-subscriptions", token: alice.accessToken,
                json: [
                    "endpoint": "http://127.0.0.1:9/push/alice",
                    "keys": ["p256dh": browser, "auth": Data(count: 16).base64URLEncodedString()],
                ])
            let subscriptionID = try #require(subscribed.json["id"] as? String, "\(subscribed.text)")
            let bob = try await api.register()
            let bobsUpload = try #require(try await api.createAudioEntry(bob, sizeBytes: 100).uploadURL)
            let bobsSignature = try #require(URLComponents(string: bobsUpload)?.percentEncodedQuery)

            func snapshot() async throws -> [String] {
                let entry = try await api.send(.get, entryPath, token: alice.accessToken)
                let link = try await api.send(.get, "\(entryPath)/audio", token: alice.accessToken)
                let audio = try await api.send(.get, try #require(link.json["url"] as? String))
                let list = try await api.send(.get, "/v1/entries", token: alice.accessToken)
                let export = try await api.send(.get, "/v1/exports/\(exportID)", token: alice.accessToken)
                let browsers = try await api.send(.get, "/v1/me/push-subscriptions", token: alice.accessToken)
                return [
                    browsers.text,
                    entry.text, String(audio.body.count), audio.body.base64EncodedString().suffix(64).description, list.text,
                    export.text,
                ]
            }
            let before = try await snapshot()

            for operation in operations {
                let names = operation.path.matches(of: /\{([a-z_]+)\}/).map { String($0.1) }
                // A provider's name and a date name no object of anyone's: B's answer must hold nothing of A's.
                guard names.contains(where: { $0 != "provider" && $0 != "date" }) else {
                    #expect(
                        Self.operationsWithoutObjectIDs.contains(operation.id),
                        "\(operation) is new: add it to operationsWithoutObjectIDs, or give it a check here")
                    let path = operation.path.replacingOccurrences(of: "{date}", with: "2026-05-01")
                    if operation.method == .get && operation.usesBearerToken && !path.contains("{")
                        && !Self.streams.contains(operation.id)
                    {
                        let reply = try await api.send(.get, path, token: bob.accessToken)
                        #expect(
                            !reply.text.contains(entryID.uuidString.lowercased()) && !reply.text.contains(exportID)
                                && !reply.text.contains("alice@"),
                            "\(operation)")
                    }
                    continue
                }
                var path = operation.path
                for name in names {
                    let value: String
                    switch name {
                    case "id" where operation.path.hasPrefix("/v1/exports"), "export_id": value = exportID
                    case "id" where operation.path.hasPrefix("/v1/me/push-subscriptions"): value = subscriptionID
                    case "id", "entry_id": value = entryID.uuidString.lowercased()
                    case "user_id": value = alice.userID
                    default:
                        Issue.record("\(operation): which of A's objects is {\(name)}? Say so in this test.")
                        value = "unknown"
                    }
                    path = path.replacingOccurrences(of: "{\(name)}", with: value)
                }
                let reply: APIClient.Reply
                if operation.usesBearerToken {
                    reply = try await api.send(
                        operation.method, path, token: bob.accessToken, rawBody: operation.body,
                        headers: operation.body == nil ? [:] : [.contentType: "application/json"])
                    #expect(reply.status == .notFound, "\(operation) as B: \(reply.status) \(reply.text)")
                } else {
                    // Signed URLs: B's own signature on A's ids
                    reply = try await api.send(
                        operation.method, "\(path)?\(bobsSignature)", rawBody: Data(count: 100),
                        headers: [.contentType: "audio/mp4"])
                    #expect(reply.status == .forbidden, "\(operation) with B's signature: \(reply.status)")
                }
                #expect(!reply.text.contains("alice@"), "\(operation)")
            }

            // Then A's entry, audio and list are exactly as before, and A still signs in
            #expect(try await snapshot() == before)
            let login = try await api.send(
                .post, "/v1/auth/email/login", json: ["email": "alice@example.com", "password": "correct horse battery"])
            #expect(login.status == .ok)
        }
    }
}
