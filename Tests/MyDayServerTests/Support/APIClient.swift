import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import MyDayTestSupport
import NIOCore
import Testing

/// A small JSON client over the test server, speaking the API as any client would.
struct APIClient: Sendable {
    /// Sends one request and answers the response head and body.
    typealias Transport =
        @Sendable (String, HTTPRequest.Method, HTTPFields, ByteBuffer?) async throws -> (HTTPResponse, ByteBuffer)

    let transport: Transport
    let port: Int

    /// A client of a server listening on `port` of this machine (a test server, or a server process).
    init(connection: TestClient, port: Int) {
        self.port = port
        transport = { uri, method, headers, body in
            let response = try await connection.execute(
                .init(uri, method: method, authority: "127.0.0.1:\(port)", headers: headers, body: body))
            return (response.head, response.body ?? ByteBuffer())
        }
    }

    struct Reply {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: Data

        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        /// The `error.code` of an error body.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        /// The `error.message` of an error body: what a person is told.
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends a request and answers the reply; with `expecting`, a reply of another status fails the test at once,
    /// with the body (for setup steps whose failure would otherwise show much later).
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: Any? = nil, rawBody: Data? = nil,
        headers extra: HTTPFields = [:], expecting: HTTPResponse.Status? = nil
    ) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(data: try JSONSerialization.data(withJSONObject: json))
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
        } else if let rawBody {
            body = ByteBuffer(data: rawBody)
        }
        let (head, responseBody) =
            try await Self.isElsewhere(path, than: port)
            ? Self.sendElsewhere(path, method, headers, body) : transport(Self.relative(path), method, headers, body)
        let reply = Reply(status: head.status, headers: head.headerFields, body: Data(buffer: responseBody))
        if let expecting {
            try #require(reply.status == expecting, "\(method) \(path) answered \(reply.status): \(reply.text)")
        }
        return reply
    }

    /// Whether `url` names another server on another port than the one under test (a bucket's presigned URL, say);
    /// the server's own links name no port (the request's host, or the public URL).
    static func isElsewhere(_ url: String, than port: Int) -> Bool {
        guard url.hasPrefix("http"), let other = URLComponents(string: url)?.port else { return false }
        return other != port
    }

    /// Sends a request to another server, as a client would, without following redirects.
    static func sendElsewhere(_ url: String, _ method: HTTPRequest.Method, _ headers: HTTPFields, _ body: ByteBuffer?)
        async throws -> (HTTPResponse, ByteBuffer)
    {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method.rawValue)
        for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
        if let body { request.body = .bytes(body) }
        let response = try await HTTPClient.notFollowingRedirects.execute(request, timeout: .seconds(120))
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let name = HTTPField.Name(name) { fields.append(.init(name: name, value: value)) }
        }
        let answer = try await response.body.collect(upTo: 256 << 20)
        return (HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields), answer)
    }

    /// A path with its query, from an absolute URL the server answered.
    static func relative(_ url: String) -> String {
        guard url.hasPrefix("http"), let components = URLComponents(string: url) else { return url }
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    struct Session {
        let accessToken: String
        let refreshToken: String
        let userID: String
    }

    func register(
        _ email: String = "person-\(UUID().uuidString.prefix(8))@example.com", password: String = "correct horse battery"
    )
        async throws -> Session
    {
        let reply = try await send(.post, "/v1/auth/email/register", json: ["email": email, "password": password])
        try #require(reply.status == .created, "register answered \(reply.status): \(reply.text)")
        return Self.session(reply)
    }

    static func session(_ reply: Reply) -> Session {
        let json = reply.json
        return Session(
            accessToken: json["access_token"] as? String ?? "", refreshToken: json["refresh_token"] as? String ?? "",
            userID: (json["user"] as? [String: Any])?["id"] as? String ?? "")
    }

    /// Creates a typed entry (failing the test if it is refused) and answers its id, in lower case.
    @discardableResult
    func createTypedEntry(
        _ session: Session, text: String, createdAt: String = "2026-05-01T08:30:00Z", tz: String = "UTC"
    ) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await send(
            .post, "/v1/entries", token: session.accessToken,
            json: ["id": id, "created_at": createdAt, "tz": tz, "duration_s": 0, "kind": "text", "text": text],
            expecting: .created)
        return id
    }

    /// Creates an audio entry and answers its JSON and upload target.
    func createAudioEntry(
        _ session: Session, id: UUID = UUID(), sizeBytes: Int, contentType: String = "audio/mp4",
        createdAt: String = "2026-05-01T08:30:00Z", tz: String = "Europe/Paris", language: String? = nil
    ) async throws -> (entry: [String: Any], uploadURL: String?, reply: Reply) {
        var body: [String: Any] = [
            "id": id.uuidString.lowercased(), "created_at": createdAt, "tz": tz, "duration_s": 1.5, "kind": "audio",
            "size_bytes": sizeBytes, "content_type": contentType,
        ]
        body["language"] = language
        let reply = try await send(.post, "/v1/entries", token: session.accessToken, json: body)
        let entry = reply.json["entry"] as? [String: Any] ?? [:]
        let upload = reply.json["upload"] as? [String: Any]
        return (entry, upload?["url"] as? String, reply)
    }

    /// Creates an audio entry and uploads `audio` to its URL, without completing it; answers the entry's id.
    func createAndUpload(_ session: Session, _ audio: Data) async throws -> UUID {
        let id = UUID()
        let created = try await createAudioEntry(session, id: id, sizeBytes: audio.count)
        let uploaded = try await upload(try #require(created.uploadURL, "\(created.reply.text)"), audio)
        try #require(uploaded.status.kind == .successful, "upload answered \(uploaded.status): \(uploaded.text)")
        return id
    }

    /// Creates an audio entry, uploads `audio` (`TestAudio.m4a()` by default) and completes it: an entry as a phone
    /// leaves it. Answers its id.
    @discardableResult
    func createUploadedEntry(_ session: Session, id: UUID = UUID(), audio: Data? = nil, language: String? = nil)
        async throws -> UUID
    {
        let audio = if let audio { audio } else { try await TestAudio.m4a() }
        let created = try await createAudioEntry(session, id: id, sizeBytes: audio.count, language: language)
        let uploaded = try await upload(try #require(created.uploadURL, "\(created.reply.text)"), audio)
        try #require(uploaded.status.kind == .successful, "upload answered \(uploaded.status): \(uploaded.text)")
        let completed = try await send(.post, "/v1/entries/\(id)/complete", token: session.accessToken)
        try #require(completed.json["status"] as? String == "uploaded", "complete answered \(completed.text)")
        return id
    }

    func upload(_ url: String, _ data: Data, contentType: String = "audio/mp4") async throws -> Reply {
        try await send(.put, url, rawBody: data, headers: [.contentType: contentType])
    }
}

extension APIClient {
    /// Asks for an export of `from`…`to` (local dates in `tz`) and answers its id.
    func requestExport(_ session: Session, from: String, to: String, tz: String = "UTC") async throws -> String {
        let export = try await send(.post, "/v1/exports", token: session.accessToken, json: ["from": from, "to": to, "tz": tz])
        return try #require(export.json["id"] as? String, "export answered \(export.status): \(export.text)")
    }

    /// The entry once its transcription has finished (`transcribed` or `failed`), within 90 s.
    func finishedTranscription(_ session: Session, _ id: UUID, deadline: Duration = .seconds(90)) async throws
        -> [String: Any]
    {
        var entry: [String: Any] = [:]
        try await pollUntil("entry \(id) transcribed", deadline: deadline, every: .milliseconds(100)) {
            entry = try await send(.get, "/v1/entries/\(id)", token: session.accessToken).json
            return ["transcribed", "failed"].contains(entry["status"] as? String)
        }
        return entry
    }
}

extension HTTPClient {
    /// A client that answers redirects as they come, for tests that look at them.
    static let notFollowingRedirects = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))
}
