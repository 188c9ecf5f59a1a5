import Foundation
import Hummingbird
import Logging
import MyDayModels

/// `PUT` and `GET /v1/blobs/audio/{user}/{entry}` and `GET /v1/blobs/exports/{user}/{export}`: the
/// signed URLs of the disk blob store. They carry no bearer token: the signature is the permission,
/// and it expires. With a bucket, clients reach audio there, and an export's link sends them on to it.
struct BlobRoutes<Context: RequestContext>: Sendable {
    /// The disk store served here; nil when blobs live in a bucket.
    let disk: DiskBlobStore?
    let links: BlobLinks
    let entries: EntryStore
    let users: UserStore
    let exports: ExportStore
    let signer: URLSigner
    let maxUploadBytes: Int
    let limits: RateLimitGuard

    /// How long the bucket's URL an export's link sends the browser to works: long enough to start the download.
    static var exportRedirectLifetime: Duration { .seconds(300) }

    func register(on router: Router<Context>) {
        router.get("/v1/blobs/exports/:user/:export") { request, context in try await downloadExport(request, context) }
        router.head("/v1/blobs/exports/:user/:export") { request, context in try await downloadExport(request, context) }
        guard disk != nil else { return }
        router.put("/v1/blobs/audio/:user/:entry") { request, context in try await upload(request, context) }
        router.get("/v1/blobs/audio/:user/:entry") { request, context in try await download(request, context) }
        router.head("/v1/blobs/audio/:user/:entry") { request, context in try await download(request, context) }
    }

    private func blobKey(_ context: Context) throws -> String {
        guard let user = context.parameters.get("user").flatMap(UUID.init(uuidString:)),
            let entry = context.parameters.get("entry").flatMap(UUID.init(uuidString:))
        else { throw APIError.notFound }
        return BlobKey.audio(userID: user, entryID: entry)
    }

    private func downloadExport(_ request: Request, _ context: Context) async throws -> Response {
        guard let user = context.parameters.get("user").flatMap(UUID.init(uuidString:)),
            let exportID = context.parameters.get("export").flatMap(UUID.init(uuidString:))
        else { throw APIError.notFound }
        let key = BlobKey.export(userID: user, exportID: exportID)
        try authorize("GET", key: key, request)
        guard let export = try await exports.export(blobKey: key), export.isDownloadable() else { throw APIError.notFound }
        let disposition = "attachment; filename=\"myday-export-\(export.from)-\(export.to).zip\""
        guard let disk else {
            let target = links.bucketDownload(
                key: key, contentType: "application/zip", disposition: disposition, lifetime: Self.exportRedirectLifetime)
            return Response(status: .found, headers: [.location: target?.url ?? "", .cacheControl: "private, no-store"])
        }
        guard let size = try await disk.size(key: key) else { throw APIError.notFound }
        return try await serve(
            path: try disk.path(for: key), size: size,
            headers: [.contentType: "application/zip", .contentDisposition: disposition, .cacheControl: "private, no-store"],
            request, context)
    }

    private func authorize(_ method: String, key: String, _ request: Request) throws {
        let query = request.uri.queryParameters
        switch signer.verify(
            method: method, blobKey: key, expires: query["expires"].map(String.init), version: query["v"].map(String.init),
            signature: query["signature"].map(String.init))
        {
        case .valid: return
        case .expired: throw APIError.forbidden("This link has expired; ask for a new one.")
        case .invalid: throw APIError.forbidden("This link is not valid.")
        }
    }

    private func upload(_ request: Request, _ context: Context) async throws -> Response {
        guard let disk else { throw APIError.notFound }
        let key = try blobKey(context)
        try authorize("PUT", key: key, request)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxUploadBytes {
            throw APIError.tooLarge(limit: maxUploadBytes)
        }
        guard let entry = try await entries.entry(audioKey: key) else { throw APIError.notFound }
        try await limits.upload(user: entry.userID.lowercased)
        guard entry.status == .pendingUpload else {
            throw APIError.conflict("This entry's audio is already stored; it cannot be replaced.")
        }
        let declared = AudioContainer(rawValue: entry.contentType ?? "") ?? .mp4
        let contentType = request.headers[.contentType] ?? ""
        guard AudioContainer(contentType: contentType) == declared || contentType.hasPrefix("application/octet-stream") else {
            throw APIError.unsupportedMediaType("This entry takes \(declared.rawValue), as declared when it was created.")
        }
        // No more than was declared (and counted against the quota) when the entry was created.
        let allowed = min(maxUploadBytes, entry.sizeBytes ?? maxUploadBytes)
        if let sent = request.headers[.contentLength].flatMap(Int.init), sent > allowed {
            throw APIError.tooLarge(limit: allowed)
        }
        let incoming = BlobKey.incoming(ofAudio: key)
        do {
            let stored = try await disk.write(key: incoming, contents: UploadBody(base: request.body), maxBytes: allowed)
            // The entry (or its account) may have been deleted, or completed by an earlier upload, while the bytes
            // streamed in: then they may not stay.
            let current = try await entries.entry(audioKey: key)
            guard current?.status == .pendingUpload else {
                try await disk.delete(key: incoming)
                if current == nil { throw APIError.notFound }
                throw APIError.conflict("This entry's audio is already stored; it cannot be replaced.")
            }
            context.logger.info("audio stored", metadata: ["entry": "\(entry.id.lowercased)", "bytes": "\(stored)"])
        } catch BlobStoreError.tooLarge(let limit) {
            throw APIError.tooLarge(limit: limit)
        } catch is UploadBody.Interrupted {
            context.logger.info("upload interrupted; nothing stored", metadata: ["entry": "\(entry.id.lowercased)"])
            throw APIError.badRequest("The upload was cut off before its end; nothing was stored. Upload it again.")
        }
        return Response(status: .noContent)
    }

    private func download(_ request: Request, _ context: Context) async throws -> Response {
        guard let disk else { throw APIError.notFound }
        let key = try blobKey(context)
        try authorize("GET", key: key, request)
        // A link made for sessions that have ended (sign-out everywhere, a new password) is dead.
        guard let version = request.uri.queryParameters["v"].flatMap({ Int($0) }),
            let owner = context.parameters.get("user").flatMap(UUID.init(uuidString:)),
            try await users.accountState(id: owner)?.tokenVersion == version
        else { throw APIError.forbidden("This link stopped working when the account's sessions ended; ask for a new one.") }
        guard let entry = try await entries.entry(audioKey: key), entry.status != .pendingUpload,
            let size = try await disk.size(key: key), size > 0
        else { throw APIError.notFound }
        return try await serve(
            path: try disk.path(for: key), size: size,
            headers: [
                .contentType: entry.contentType ?? "application/octet-stream",
                .cacheControl: "private, no-store",
                .contentDisposition: "inline; filename=\"\(entry.filename)\"",
            ], request, context)
    }

    /// Streams a file, whole or the one byte range the request asks for.
    private func serve(path: String, size: Int, headers: HTTPFields, _ request: Request, _ context: Context) async throws
        -> Response
    {
        var headers = headers
        headers[.acceptRanges] = "bytes"
        guard let rangeHeader = request.headers[.range] else {
            headers[.contentLength] = String(size)
            let body = request.method == .head ? ResponseBody() : try await FileIO().loadFile(path: path, context: context)
            return Response(status: .ok, headers: headers, body: body)
        }
        guard let range = ByteRange.resolve(rangeHeader, size: size) else {
            var response = APIError(
                status: .rangeNotSatisfiable, code: "range_not_satisfiable", message: "The range lies outside the file."
            ).response()
            response.headers[.contentRange] = "bytes */\(size)"
            return response
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        headers[.contentLength] = String(range.count)
        let body =
            request.method == .head ? ResponseBody() : try await FileIO().loadFile(path: path, range: range, context: context)
        return Response(status: .partialContent, headers: headers, body: body)
    }
}

/// One `Range: bytes=…` request (RFC 9110 §14), resolved against a size; several ranges are not supported.
enum ByteRange {
    static func resolve(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return nil }
            return max(0, size - suffix)...(size - 1)
        }
        guard let start = Int(first), start >= 0, start < size else { return nil }
        guard !last.isEmpty else { return start...(size - 1) }
        guard let end = Int(last), end >= start else { return nil }
        return start...min(end, size - 1)
    }
}
