import HTTPTypes

/// An error a client can act on: an HTTP status, a stable code and a sentence. Never holds diary content.
struct APIError: Error, Equatable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    /// Seconds the client should wait, sent as `Retry-After`.
    var retryAfterSeconds: Int? = nil
    /// The methods the path takes, sent as `Allow` with 405.
    var allow: String? = nil

    static func badRequest(_ message: String) -> APIError {
        .init(status: .badRequest, code: "invalid_request", message: message)
    }
    static func unprocessable(_ message: String) -> APIError {
        .init(status: .unprocessableContent, code: "invalid_value", message: message)
    }
    static let unauthorized = APIError(
        status: .unauthorized, code: "unauthorized", message: "Sign in again: the credentials are missing, wrong or expired.")
    static let notFound = APIError(status: .notFound, code: "not_found", message: "There is no such object.")
    static func conflict(_ message: String) -> APIError { .init(status: .conflict, code: "conflict", message: message) }
    static func forbidden(_ message: String) -> APIError { .init(status: .forbidden, code: "forbidden", message: message) }
    static func quotaExceeded(_ full: QuotaExceeded) -> APIError {
        let left = max(0, full.quotaBytes - full.usedBytes)
        return .init(
            status: .contentTooLarge, code: "quota_exceeded",
            message: "Your diary has no room for this: it needs \(StorageUsage.spoken(full.neededBytes)), and "
                + "\(StorageUsage.spoken(left)) of your \(StorageUsage.spoken(full.quotaBytes)) are left. "
                + "Delete old exports or entries to make room.")
    }
    static func tooLarge(limit: Int) -> APIError {
        .init(status: .contentTooLarge, code: "too_large", message: "The body is larger than the limit of \(limit) bytes.")
    }
    static func unsupportedMediaType(_ message: String) -> APIError {
        .init(status: .unsupportedMediaType, code: "unsupported_media_type", message: message)
    }
    static func tooManyRequests(retryAfterSeconds: Int) -> APIError {
        .init(
            status: .tooManyRequests, code: "rate_limited",
            message: "Too many requests; try again in \(retryAfterSeconds) seconds.", retryAfterSeconds: retryAfterSeconds)
    }
    /// The blob store (a bucket) could not be reached or refused the server: nothing was changed; try again.
    static let storageUnavailable = APIError(
        status: .serviceUnavailable, code: "storage_unavailable",
        message: "The storage of recordings cannot be reached just now; nothing was changed. Try again in a moment.",
        retryAfterSeconds: 5)
    static let serverFault = APIError(
        status: .internalServerError, code: "internal", message: "Something went wrong on the server. Try again later.")
}
