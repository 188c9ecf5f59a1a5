import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// What a push notification says; the web app's service worker shows it.
struct PushMessage: Codable, Sendable, Equatable {
    let title: String
    let body: String
    /// Where a tap on it leads, within the web app.
    let url: String
    /// A newer notification with the same tag replaces the older one on the screen.
    let tag: String

    static let reminder = PushMessage(
        title: "A minute for your diary?", body: "Nothing in My Day today yet. Press one button and say how your day went.",
        url: "/#/", tag: "myday-reminder")
    static let test = PushMessage(
        title: "My Day", body: "Notifications work in this browser: reminders will come here.", url: "/#/profile",
        tag: "myday-test")
}

/// What became of one push message.
enum PushOutcome: Sendable, Equatable {
    /// The push service took it (201, RFC 8030 §5).
    case delivered
    /// The push service no longer knows the subscription (404, 410): it is to be ended.
    case gone
    /// The push service refused it for good (4xx): a key it does not take, a message it will not carry.
    case refused(String)
    /// Away, busy (429) or failing (5xx): another attempt may do.
    case unavailable(String)
}

/// Posts encrypted, VAPID-signed messages (RFC 8030, 8291, 8292) to browsers' push services; only to endpoints
/// `endpoints` allows, and never following a redirect elsewhere.
struct PushSender: Sendable {
    let key: VAPIDKey
    /// Who push services may contact about our messages: the public URL, or the sender address as `mailto:`.
    let subject: String
    let endpoints: PushEndpoint
    let clock: @Sendable () -> Date
    var http: HTTPClient = .pushServices

    /// Sends `message` to one browser. `ttl` is how long the push service keeps it for a browser that is offline;
    /// `topic` lets a newer message with the same topic replace one still waiting.
    func send(_ message: PushMessage, to subscription: PushSubscriptionRecord, ttl: Int, topic: String) async -> PushOutcome {
        guard case .success(let url) = endpoints.check(subscription.endpoint) else {
            return .refused("the endpoint is not a push service this server sends to")
        }
        let body: Data
        let authorization: String
        do {
            guard let p256dh = Data(base64URLEncoded: subscription.p256dh), let auth = Data(base64URLEncoded: subscription.auth)
            else { return .refused("the subscription's keys are not base64url") }
            body = try WebPushEncryption.encrypt(
                try JSONEncoder().encode(message), browserKey: p256dh, authSecret: auth)
            authorization = try await key.authorization(for: url, subject: subject, now: clock())
        } catch {
            return .refused("the subscription's keys cannot be used: \(error)")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "TTL", value: String(ttl))
        request.headers.add(name: "Topic", value: topic)
        request.headers.add(name: "Urgency", value: "normal")
        request.body = .bytes(ByteBuffer(data: body))
        do {
            let response = try await http.execute(request, timeout: .seconds(30))
            let answer = String(buffer: try await response.body.collect(upTo: 16 * 1024)).prefix(200)
            switch response.status.code {
            case 200..<300: return .delivered
            case 404, 410: return .gone
            case 429, 500...: return .unavailable("the push service answered \(response.status.code)")
            default: return .refused("the push service answered \(response.status.code): \(answer)")
            }
        } catch {
            return .unavailable("the push service could not be reached: \(error)")
        }
    }
}

extension HTTPClient {
    /// The client for push services: short timeouts, no redirects (a push service does not send us elsewhere).
    static let pushServices: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
