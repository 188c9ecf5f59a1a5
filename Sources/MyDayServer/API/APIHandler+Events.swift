import Foundation
import MyDayAPI
import OpenAPIRuntime
import ServiceLifecycle

extension APIHandler {
    func followChanges(_ input: Operations.FollowChanges.Input) async throws -> Operations.FollowChanges.Output {
        let user = try RequestUser.required()
        let signals = try await changeFeed.watch(
            userID: user.id, tokenVersion: user.tokenVersion, expiresAt: RequestUser.tokenExpiresAt ?? Date())
        // A stopping server ends the stream, so open streams never hold up its shutdown.
        let text = signals.map { ArraySlice(Array(ServerSentEvents.text(of: $0).utf8)) }.cancelOnGracefulShutdown()
        return .ok(.init(body: .textEventStream(HTTPBody(text, length: .unknown, iterationBehavior: .single))))
    }
}
