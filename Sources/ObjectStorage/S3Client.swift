import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// An S3 answer other than success: its status and, when it sent one, S3's error code (`NoSuchKey`, `AccessDenied`);
/// status 0 when the service did not answer at all.
package struct S3Error: Error, CustomStringConvertible, Equatable {
    package let status: UInt
    package let code: String?
    package let message: String?

    package init(status: UInt, code: String?, message: String?) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// Whether trying again later may work: no answer, a fault or overload of the service. Other answers (a wrong key,
    /// no permission) need the operator.
    package var isTransient: Bool { status == 0 || status >= 500 || status == 408 || status == 429 }

    package var description: String {
        "object storage answered HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
    }
}

/// The S3 operations My Day uses, signed with SigV4 and sent with AsyncHTTPClient. Keys are given without the
/// location's prefix; bodies stream both ways.
package struct S3Client: Sendable {
    package let location: S3Location
    let signer: SigV4Signer
    let http: HTTPClient
    let now: @Sendable () -> Date

    package init(
        location: S3Location, credentials: S3Credentials, http: HTTPClient = .objectStorage,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.location = location
        signer = SigV4Signer(credentials: credentials, region: location.region)
        self.http = http
        self.now = now
    }

    package struct ObjectInfo: Sendable, Equatable {
        package let size: Int
        package let etag: String?
        /// The object's user metadata (`x-amz-meta-*`), by name without the prefix.
        package var metadata: [String: String] = [:]
    }

    /// The object's size, entity tag and metadata; nil when there is none.
    package func head(_ key: String) async throws -> ObjectInfo? {
        let response = try await send("HEAD", key: key, allowing: [404])
        guard response.status != .notFound else { return nil }
        var metadata: [String: String] = [:]
        for (name, value) in response.headers where name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(name.lowercased().dropFirst("x-amz-meta-".count))] = value
        }
        return ObjectInfo(
            size: response.headers.first(name: "content-length").flatMap(Int.init) ?? 0,
            etag: response.headers.first(name: "etag"), metadata: metadata)
    }

    /// Stores `length` bytes of `body` as `key`; nothing is visible under it until every byte has arrived. `headers`
    /// may add `Content-MD5` (the service then refuses bytes that changed on the way) and `x-amz-meta-*` metadata.
    package func put(
        _ key: String, body: HTTPClientRequest.Body, length: Int, contentType: String? = nil,
        headers extra: [(name: String, value: String)] = []
    ) async throws {
        var headers = [("Content-Length", String(length))]
        if let contentType { headers.append(("Content-Type", contentType)) }
        try await send("PUT", key: key, headers: headers + extra, body: body).drain()
    }

    /// The object's bytes (those in `range` when given), streamed; throws `S3Error` with status 404 when it is missing.
    package func get(_ key: String, range: ClosedRange<Int>? = nil) async throws -> HTTPClientResponse.Body {
        let headers = range.map { [("Range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        return try await send("GET", key: key, headers: headers).body
    }

    /// The root of an answer that must be XML; a 200 with anything else is an error.
    private static func document(_ answer: String) throws -> S3XML.Element {
        guard let root = S3XML.Element.root(of: answer) else {
            throw S3Error(status: 200, code: nil, message: "the answer is not XML: \(answer.prefix(200))")
        }
        return root
    }

    /// Copies `source` to `destination` inside the bucket.
    package func copy(from source: String, to destination: String) async throws {
        let sourcePath = SigV4Signer.encodePath("\(location.bucket)/\(location.keyPrefix)\(source)")
        let response = try await send("PUT", key: destination, headers: [("x-amz-copy-source", sourcePath)])
        // A copy can fail after its 200 has been sent: the error is then in the body.
        let answer = String(buffer: try await response.body.collect(upTo: 1 << 16))
        if let error = S3XML.error(in: answer) {
            throw S3Error(status: 200, code: error.code, message: error.message)
        }
    }

    /// Removes `key`; removing a missing object is not an error.
    package func delete(_ key: String) async throws {
        try await send("DELETE", key: key, allowing: [404]).drain()
    }

    /// Removes `keys` with one `DeleteObjects` request per thousand (one `DELETE` each where the service has no
    /// `DeleteObjects`, as Google Cloud Storage long had not); throws when any of them could not be removed.
    package func delete(keys: [String]) async throws {
        for start in stride(from: 0, to: keys.count, by: 1000) {
            let batch = keys[start..<min(start + 1000, keys.count)]
            do {
                try await deleteObjects(batch)
            } catch let error as S3Error where error.code == "NotImplemented" {
                for key in batch { try await delete(key) }
            }
        }
    }

    private func deleteObjects(_ batch: ArraySlice<String>) async throws {
        let objects = batch.map { "<Object><Key>\(S3XML.escaped(location.keyPrefix + $0))</Key></Object>" }.joined()
        let document = Data("<Delete><Quiet>true</Quiet>\(objects)</Delete>".utf8)
        let response = try await send(
            "POST", key: nil, query: [("delete", "")],
            headers: [
                ("Content-Type", "application/xml"), ("Content-Length", String(document.count)),
                ("Content-MD5", Data(Insecure.MD5.hash(data: document)).base64EncodedString()),
            ],
            body: .bytes(ByteBuffer(bytes: document)), payloadHash: SHA256.hash(data: document).hex)
        let answer = String(buffer: try await response.body.collect(upTo: 1 << 20))
        let failures = S3XML.Element.root(of: answer)?.all("Error") ?? []
        if let first = failures.first {
            throw S3Error(
                status: 200, code: first.value("Code"),
                message: "\(failures.count) of \(batch.count) objects were not removed")
        }
    }

    /// One page of a listing: objects under `prefix` and, with a `delimiter`, the folders right under it.
    package struct Listing: Sendable {
        package var objects: [(key: String, size: Int)] = []
        package var folders: [String] = []
    }

    /// Everything under `prefix` (keys without the location's prefix), all pages read, `pageSize` keys a page at most.
    package func list(prefix: String, delimiter: String? = nil, pageSize: Int = 1000) async throws -> Listing {
        var listing = Listing()
        var continuation: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", location.keyPrefix + prefix), ("max-keys", String(pageSize))]
            if let delimiter { query.append(("delimiter", delimiter)) }
            if let continuation { query.append(("continuation-token", continuation)) }
            let response = try await send("GET", key: nil, query: query)
            let answer = try Self.document(String(buffer: try await response.body.collect(upTo: 16 << 20)))
            for element in answer.all("Contents") {
                guard let key = element.value("Key") else { continue }
                listing.objects.append((unprefixed(key), element.value("Size").flatMap(Int.init) ?? 0))
            }
            for element in answer.all("CommonPrefixes") {
                if let folder = element.value("Prefix") { listing.folders.append(unprefixed(folder)) }
            }
            continuation = answer.value("IsTruncated") == "true" ? answer.value("NextContinuationToken") : nil
        } while continuation != nil
        return listing
    }

    private func unprefixed(_ key: String) -> String {
        key.hasPrefix(location.keyPrefix) ? String(key.dropFirst(location.keyPrefix.count)) : key
    }

    // MARK: - Multipart uploads

    /// Starts a multipart upload of `key`; answers its upload id.
    package func startMultipartUpload(
        _ key: String, contentType: String? = nil, headers extra: [(name: String, value: String)] = []
    ) async throws -> String {
        let headers = (contentType.map { [("Content-Type", $0)] } ?? []) + extra
        let response = try await send("POST", key: key, query: [("uploads", "")], headers: headers)
        let answer = String(buffer: try await response.body.collect(upTo: 1 << 16))
        guard let id = S3XML.Element.root(of: answer)?.value("UploadId") else {
            throw S3Error(status: 200, code: nil, message: "the answer to a new multipart upload named no upload id")
        }
        return id
    }

    /// Uploads part `number` (from 1) of an upload, checked against `contentMD5` (base64) when given; answers its
    /// entity tag, which completing needs.
    package func uploadPart(
        _ key: String, uploadID: String, number: Int, body: HTTPClientRequest.Body, length: Int, contentMD5: String? = nil
    ) async throws -> String {
        var headers = [("Content-Length", String(length))]
        if let contentMD5 { headers.append(("Content-MD5", contentMD5)) }
        let response = try await send(
            "PUT", key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)], headers: headers, body: body)
        try await response.drain()
        guard let etag = response.headers.first(name: "etag") else {
            throw S3Error(status: response.status.code, code: nil, message: "an uploaded part came back without an ETag")
        }
        return etag
    }

    /// Joins the uploaded parts into the object; only now does it appear under `key`.
    package func completeMultipartUpload(_ key: String, uploadID: String, partTags: [String]) async throws {
        let parts = partTags.enumerated().map {
            "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\(S3XML.escaped($0.element))</ETag></Part>"
        }
        let document = Data("<CompleteMultipartUpload>\(parts.joined())</CompleteMultipartUpload>".utf8)
        let response = try await send(
            "POST", key: key, query: [("uploadId", uploadID)],
            headers: [("Content-Type", "application/xml"), ("Content-Length", String(document.count))],
            body: .bytes(ByteBuffer(bytes: document)), payloadHash: SHA256.hash(data: document).hex)
        let answer = String(buffer: try await response.body.collect(upTo: 1 << 16))
        if let error = S3XML.error(in: answer) {
            throw S3Error(status: 200, code: error.code, message: error.message)
        }
    }

    /// Drops an unfinished upload and the parts it holds; an upload already gone is not an error.
    package func abortMultipartUpload(_ key: String, uploadID: String) async throws {
        try await send("DELETE", key: key, query: [("uploadId", uploadID)], allowing: [404]).drain()
    }

    /// Uploads still open under `prefix`, as (key, upload id, started), all pages read, `pageSize` a page at most.
    package func openMultipartUploads(prefix: String, pageSize: Int = 1000) async throws -> [(
        key: String, uploadID: String, started: String
    )] {
        var uploads: [(key: String, uploadID: String, started: String)] = []
        var markers: (key: String, uploadID: String)?
        repeat {
            var query = [("uploads", ""), ("prefix", location.keyPrefix + prefix), ("max-uploads", String(pageSize))]
            if let markers { query += [("key-marker", markers.key), ("upload-id-marker", markers.uploadID)] }
            let response = try await send("GET", key: nil, query: query)
            let answer = try Self.document(String(buffer: try await response.body.collect(upTo: 16 << 20)))
            for upload in answer.all("Upload") {
                guard let key = upload.value("Key"), let id = upload.value("UploadId") else { continue }
                uploads.append((unprefixed(key), id, upload.value("Initiated") ?? ""))
            }
            markers = nil
            if answer.value("IsTruncated") == "true", let key = answer.value("NextKeyMarker"),
                let id = answer.value("NextUploadIdMarker")
            {
                markers = (key, id)
            }
        } while markers != nil
        return uploads
    }

    // MARK: - Presigned URLs

    /// A URL that lets anyone send `method` to `key` for `expires` seconds from `date` (now when nil), with exactly the
    /// `headers` given (they are signed) and the `query` given (`response-content-disposition`, say).
    package func presignedURL(
        method: String, key: String, headers: [(name: String, value: String)] = [], query: [(name: String, value: String)] = [],
        expires: Int, at date: Date? = nil
    ) -> String {
        let request = SignableRequest(
            method: method, path: location.path(of: key), query: query, headers: [("Host", location.host)] + headers)
        return location.url(of: signer.presign(request, expires: expires, at: date ?? now()))
    }

    // MARK: - Sending

    /// The request with its `Host`, payload hash, date and `Authorization` headers.
    func signedRequest(
        _ method: String, key: String?, query: [(name: String, value: String)], headers: [(name: String, value: String)],
        payloadHash: String
    ) -> SignableRequest {
        var signable = SignableRequest(
            method: method, path: location.path(of: key), query: query,
            headers: [("Host", location.host), ("x-amz-content-sha256", payloadHash)] + headers)
        signer.sign(&signable, payloadHash: payloadHash, at: now())
        return signable
    }

    private func send(
        _ method: String, key: String?, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [],
        body: HTTPClientRequest.Body? = nil, payloadHash: String = SigV4Signer.unsignedPayload, allowing: Set<UInt> = []
    ) async throws -> HTTPClientResponse {
        let signable = signedRequest(method, key: key, query: query, headers: headers, payloadHash: payloadHash)
        var request = HTTPClientRequest(url: location.url(of: signable))
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signable.headers where name != "Host" { request.headers.add(name: name, value: value) }
        if let body { request.body = body }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .hours(6))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw S3Error(status: 0, code: "Unreachable", message: "\(location.host) did not answer: \(error)")
        }
        guard (200..<300).contains(response.status.code) || allowing.contains(response.status.code) else {
            let answer = method == "HEAD" ? "" : String(buffer: (try? await response.body.collect(upTo: 1 << 16)) ?? ByteBuffer())
            let error = S3XML.error(in: answer)
            throw S3Error(status: response.status.code, code: error?.code, message: error?.message)
        }
        return response
    }
}

extension HTTPClientResponse {
    /// Reads an answer whose body says nothing needed, so that its connection can serve the next request.
    fileprivate func drain() async throws {
        for try await _ in body {}
    }
}

extension HTTPClient {
    /// The client for object storage: a transfer may take long, but a connection silent for a minute has failed.
    package static let objectStorage: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
