import Foundation
import MyDayAPI
import OpenAPIRuntime
import ServiceLifecycle

extension APIHandler {
    func followChanges(_ input: Operations.FollowChanges.Input) async throws -> Operations.FollowChanges.Output {
        let user = try RequestUser.required()
        let signals: AsyncStream<ChangeFeed.Signal>
        do {
            signals = try await changeFeed.watch(
                userID: user.id, tokenVersion: user.tokenVersion, expiresAt: RequestUser.tokenExpiresAt ?? Date())
        } catch is ChangeFeed.Full {
            throw APIError.streamsFull
        }
        // A stopping server ends the stream, so open streams never hold up its shutdown.
        let text = signals.map { ArraySlice(Array(ServerSentEvents.text(of: $0).utf8)) }.cancelOnGracefulShutdown()
        return .ok(.init(body: .textEventStream(HTTPBody(text, length: .unknown, iterationBehavior: .single))))
    }
}

extension APIError {
    static let streamsFull = APIError(
        status: .serviceUnavailable, code: "streams_full",
        message: "The server follows as many live updates as it can; the app checks for changes now and then instead.",
        retryAfterSeconds: 30)
}
