import Foundation
import HTTPTypes
import Hummingbird

/// Headers every answer carries: diary data and tokens are never cached (`Cache-Control: no-store`
/// under `/v1/`), content types are not sniffed, and signed URLs do not leak through `Referer`. Behind an https public
/// URL, browsers are also told to come back over https only (HSTS).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let httpsOnly: Bool

    init(publicURL: String?) {
        httpsOnly = publicURL.flatMap { URL(string: $0)?.scheme?.lowercased() } == "https"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var response = try await next(request, context)
        if request.uri.path.hasPrefix("/v1/"), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        if httpsOnly {
            response.headers[.strictTransportSecurity] = "max-age=31536000"
        }
        return response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security")!
}
