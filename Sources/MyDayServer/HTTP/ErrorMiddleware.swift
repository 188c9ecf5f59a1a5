import Foundation
import Hummingbird
import MyDayAPI
import ObjectStorage
import OpenAPIRuntime

/// Turns every error into the one JSON shape `{"error": {"code", "message"}}`; never a stack trace.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let apiError = Self.apiError(for: error)
            if apiError.status == .internalServerError || apiError == .storageUnavailable {
                // The underlying error only: a ServerError's description holds the request's headers and tokens.
                let cause = (error as? ServerError)?.underlyingError ?? error
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: cause))"])
            }
            return apiError.response()
        }
    }

    static func apiError(for error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as S3Error:
            return error.isTransient ? .storageUnavailable : .serverFault
        case is ReadTookTooLong:
            return .databaseBusy
        case let error as ServerError:
            if let apiError = error.underlyingError as? APIError { return apiError }
            if error.underlyingError is ReadTookTooLong { return .databaseBusy }
            if let storage = error.underlyingError as? S3Error { return storage.isTransient ? .storageUnavailable : .serverFault }
            if let decoding = error.underlyingError as? DecodingError { return .badRequest(describe(decoding)) }
            if let date = error.underlyingError as? RFC3339DateTranscoder.InvalidDate {
                return .badRequest("'\(date.text)' is not an RFC 3339 date-time such as 2026-05-01T08:30:00Z.")
            }
            switch error.httpStatus {
            case .internalServerError: return .serverFault
            case .unsupportedMediaType: return .unsupportedMediaType("Send the body as application/json.")
            case let status: return APIError(status: status, code: code(for: status), message: error.causeDescription)
            }
        case let error as any HTTPResponseError:
            switch error.status {
            case .notFound: return .notFound
            case .methodNotAllowed:
                return APIError(
                    status: .methodNotAllowed, code: "method_not_allowed", message: "This path does not take that method.")
            case .contentTooLarge: return APIError(status: .contentTooLarge, code: "too_large", message: "The body is too large.")
            case let status where status.code < 500:
                return APIError(status: status, code: code(for: status), message: status.reasonPhrase)
            default: return .serverFault
            }
        default:
            return .serverFault
        }
    }

    private static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .badRequest: "invalid_request"
        case .unauthorized: "unauthorized"
        case .notFound: "not_found"
        case .unprocessableContent: "invalid_value"
        case .unsupportedMediaType: "unsupported_media_type"
        default: "http_\(status.code)"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the body" : "'\(keys.joined(separator: "."))'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "The field '\(key.stringValue)' is missing\(parent)."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context).capitalizingFirst) has the wrong type."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "The body is not valid JSON, or has fields this request does not take." }
            return "\(path(context).capitalizingFirst) is not valid: \(context.debugDescription)"
        @unknown default:
            return "The body could not be read."
        }
    }
}

extension APIError {
    /// A read ran past its time limit: the database is overloaded, or the request asked too much of it.
    static let databaseBusy = APIError(
        status: .serviceUnavailable, code: "busy", message: "The server is busy; try again in a moment.", retryAfterSeconds: 5)

    func response() -> Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
            }
            let error: Detail
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(Body(error: .init(code: code, message: message)))) ?? Data()
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        if let allow { headers[.allow] = allow }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }
}

extension String {
    fileprivate var capitalizingFirst: String { prefix(1).uppercased() + dropFirst() }
}
