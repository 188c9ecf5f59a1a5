import Crypto
import Foundation
import MyDayAPI

extension APIHandler {
    func listPushSubscriptions(_ input: Operations.ListPushSubscriptions.Input) async throws
        -> Operations.ListPushSubscriptions.Output
    {
        let user = try RequestUser.required()
        let subscriptions = try await parts.pushSubscriptions.subscriptions(userID: user.id)
        return .ok(
            .init(
                body: .json(
                    .init(applicationServerKey: parts.vapidKey.publicKey, subscriptions: subscriptions.map(Self.schema)))))
    }

    func addPushSubscription(_ input: Operations.AddPushSubscription.Input) async throws
        -> Operations.AddPushSubscription.Output
    {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        if case .failure(let refusal) = parts.pushSender.endpoints.check(body.endpoint) {
            throw APIError.unprocessable(refusal.description)
        }
        guard let p256dh = Data(base64URLEncoded: body.keys.p256dh),
            (try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)) != nil
        else { throw APIError.unprocessable("'keys.p256dh' must be the browser's P-256 public key, base64url.") }
        guard let auth = Data(base64URLEncoded: body.keys.auth), auth.count == 16 else {
            throw APIError.unprocessable("'keys.auth' must be the browser's 16-byte secret, base64url.")
        }
        if let key = body.applicationServerKey, key != parts.vapidKey.publicKey {
            throw APIError.unprocessable(
                "The browser subscribed with another server key: unsubscribe it and subscribe again with this server's.")
        }
        let (subscription, created) = try await parts.pushSubscriptions.subscribe(
            userID: user.id, endpoint: body.endpoint, p256dh: p256dh.base64URLEncodedString(),
            auth: auth.base64URLEncodedString())
        let json = Self.schema(subscription)
        return created ? .created(.init(body: .json(json))) : .ok(.init(body: .json(json)))
    }

    func deletePushSubscription(_ input: Operations.DeletePushSubscription.Input) async throws
        -> Operations.DeletePushSubscription.Output
    {
        let user = try RequestUser.required()
        guard try await parts.pushSubscriptions.delete(id: try Validation.id(input.path.id), userID: user.id) else {
            throw APIError.notFound
        }
        return .noContent(.init())
    }

    func testPushSubscription(_ input: Operations.TestPushSubscription.Input) async throws
        -> Operations.TestPushSubscription.Output
    {
        let user = try RequestUser.required()
        let id = try Validation.id(input.path.id)
        guard let subscription = try await parts.pushSubscriptions.subscription(id: id, userID: user.id) else {
            throw APIError.notFound
        }
        try await limits.pushTest(user: user.id.lowercased)
        switch await parts.pushSender.send(.test, to: subscription, ttl: 60, topic: "test") {
        case .delivered:
            return .noContent(.init())
        case .gone:
            try await parts.pushSubscriptions.delete(id: id, userID: user.id)
            throw APIError(
                status: .notFound, code: "not_found",
                message: "The browser's push service no longer knows this subscription; it is ended here too.")
        case .refused(let reason), .unavailable(let reason):
            throw APIError(status: .badGateway, code: "push_failed", message: "The notification was not sent: \(reason).")
        }
    }

    static func schema(_ subscription: PushSubscriptionRecord) -> Components.Schemas.PushSubscription {
        .init(
            id: subscription.id.lowercased, endpoint: subscription.endpoint,
            createdAt: StoredTime.date(milliseconds: subscription.createdAt))
    }
}
