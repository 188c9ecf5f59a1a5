import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import MyDayAPI

/// Serves the web app (plain HTML, CSS and ES modules from `WebApp/`, no build step) at `/`.
///
/// Files are read once at start. Every answer carries an `ETag` and `Cache-Control: no-cache` (the
/// browser revalidates; the service worker keeps the shell for offline use) and the
/// Content-Security-Policy of ADR 0015.
struct WebAppRoutes<Context: RequestContext>: Sendable {
    /// One file of the app, ready to send.
    struct File: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        let etag: String
    }

    let files: [String: File]
    let contentSecurityPolicy: String

    /// The app's files under `folder`, keyed by their path below it (`index.html`, `app/main.js`…).
    /// `blobOrigin` is the bucket's origin when blobs live in one: the app uploads and plays audio there.
    init(folder: URL, config: Components.Schemas.ClientConfig, blobOrigin: String? = nil) throws {
        var files: [String: File] = [:]
        let base = folder.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            let data = try Data(contentsOf: url)
            let digest = SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined()
            files[path] = File(
                bytes: ByteBuffer(data: data), contentType: Self.contentType(of: url.pathExtension), etag: "\"\(digest)\"")
        }
        self.files = files
        contentSecurityPolicy = Self.policy(config: config, blobOrigin: blobOrigin)
    }

    /// The app bundled with the server.
    static func bundled(config: Components.Schemas.ClientConfig, blobOrigin: String? = nil) throws -> WebAppRoutes {
        guard let folder = Bundle.module.url(forResource: "WebApp", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "WebApp"])
        }
        return try WebAppRoutes(folder: folder, config: config, blobOrigin: blobOrigin)
    }

    func register(on router: Router<Context>) {
        router.get("/") { request, _ in serve("index.html", request) }
        router.get("/sw.js") { request, _ in serve("sw.js", request) }
        router.get("/manifest.webmanifest") { request, _ in serve("manifest.webmanifest", request) }
        router.get("/app/**") { request, context in
            let rest = context.parameters.getCatchAll().joined(separator: "/")
            return serve("app/\(rest)", request)
        }
    }

    private func serve(_ path: String, _ request: Request) -> Response {
        guard let file = files[path] else {
            return APIError(status: .notFound, code: "not_found", message: "No such file.").response()
        }
        var headers: HTTPFields = [
            .contentType: file.contentType, .eTag: file.etag, .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy, .xFrameOptions: "DENY",
        ]
        if path == "sw.js" { headers[.serviceWorkerAllowed] = "/" }
        if request.headers[.ifNoneMatch] == file.etag {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.bytes))
    }

    /// Scripts and styles from this origin only; Apple's and Google's sign-in scripts when configured; uploads and audio
    /// from the bucket's origin too when blobs live in one.
    static func policy(config: Components.Schemas.ClientConfig, blobOrigin: String? = nil) -> String {
        var scripts = ["'self'"]
        var styles = ["'self'"]
        var frames: [String] = []
        var connects = ["'self'"]
        var media = ["'self'", "blob:"]
        if let blobOrigin {
            connects.append(blobOrigin)
            media.append(blobOrigin)
        }
        if config.signIn.apple {
            scripts.append("https://appleid.cdn-apple.com")
            frames.append("https://appleid.apple.com")
        }
        if config.signIn.google {
            scripts.append("https://accounts.google.com/gsi/client")
            styles.append("https://accounts.google.com/gsi/style")
            frames.append("https://accounts.google.com/gsi/")
            connects.append("https://accounts.google.com/gsi/")
        }
        return [
            "default-src 'self'", "script-src \(scripts.joined(separator: " "))", "style-src \(styles.joined(separator: " "))",
            "img-src 'self' data: blob:", "media-src \(media.joined(separator: " "))",
            "connect-src \(connects.joined(separator: " "))",
            "frame-src \(frames.isEmpty ? "'none'" : frames.joined(separator: " "))", "worker-src 'self'",
            "manifest-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    static func contentType(of fileExtension: String) -> String {
        switch fileExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }
}

extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let serviceWorkerAllowed = HTTPField.Name("Service-Worker-Allowed")!
}
