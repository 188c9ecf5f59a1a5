import Crypto
import Foundation
import Logging
import MyDayTestSupport
import Synchronization
import Testing

@testable import MyDayServer

/// Reminders as Web Push notifications: messages encrypted for the browser (RFC 8291) and signed with the server's
/// VAPID key (RFC 8292), sent only to push services, and subscriptions that end when their push service says so.
@Suite struct PushNotificationTests {
    private func base64URL(_ text: String) -> Data { Data(base64URLEncoded: text)! }

    @Test func encryptionGivesRFC8291sExampleByteForByte() throws {
        // RFC 8291 Appendix A: the browser's keys, the sender's one-time key and salt, and the message it sends.
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: base64URL("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        let body = try WebPushEncryption.encrypt(
            Data("When I grow up, I want to be a watermelon".utf8),
            browserKey: base64URL(
                "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            authSecret: base64URL("BTBZMqHH6r4Tts7J_aSIgg"), senderKey: sender, salt: base64URL("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            body.base64URLEncodedString()
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
        // Keys a browser could not have made are refused
        #expect(throws: WebPushEncryption.KeyError.badPublicKey) {
            try WebPushEncryption.encrypt(Data("x".utf8), browserKey: Data(count: 65), authSecret: Data(count: 16))
        }
        #expect(throws: WebPushEncryption.KeyError.badAuthSecret) {
            try WebPushEncryption.encrypt(
                Data("x".utf8), browserKey: P256.KeyAgreement.PrivateKey().publicKey.x963Representation,
                authSecret: Data(count: 8))
        }
    }

    @Test func onlyPushServicesAreSentTo() {
        let endpoints = PushEndpoint(services: PushEndpoint.knownServices + ["127.0.0.1"])
        for allowed in [
            "https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://web.push.apple.com/QGuQ", "https://wns2-par02p.notify.windows.com/w/?token=x",
            "http://127.0.0.1:8123/push/a",
        ] {
            #expect((try? endpoints.check(allowed).get()) != nil, "\(allowed)")
        }
        for (refused, reason) in [
            ("http://fcm.googleapis.com/fcm/send/abc", PushEndpointRefusal.notHTTPS),
            ("https://169.254.169.254/latest/meta-data", .notAPushService("169.254.169.254")),
            ("https://evilfcm.googleapis.com.example.org/x", .notAPushService("evilfcm.googleapis.com.example.org")),
            ("https://notfcm.googleapis.com.evil/x", .notAPushService("notfcm.googleapis.com.evil")),
            ("https://user:pw@fcm.googleapis.com/x", .notAURL), ("not a url", .notAURL),
        ] {
            #expect(throws: reason, "\(refused)") { try endpoints.check(refused).get() }
        }
        // Loopback is allowed only when listed
        #expect(throws: PushEndpointRefusal.notAPushService("127.0.0.1")) {
            try PushEndpoint(services: PushEndpoint.knownServices).check("http://127.0.0.1:8123/push/a").get()
        }
    }

    @Test func theKeyIsConfiguredDerivedFromTheSharedSecretOrMadeOnceInTheDataDirectory() throws {
        let file = TestFolder.make("vapid").appendingPathComponent("vapid-key.pem")
        let made = try VAPIDKey.load(configuredPEM: nil, sharedSecret: nil, file: file)
        #expect(try VAPIDKey.load(configuredPEM: nil, sharedSecret: nil, file: file).publicKey == made.publicKey)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        // Nodes that share MYDAY_SECRET derive the same key from it, and another secret gives another key
        let secret = Array("9e2b7c4a1f8d3e6b0c5a9f2d7e1b4c8a3f6d0e9b".utf8)
        let shared = try VAPIDKey.load(configuredPEM: nil, sharedSecret: secret, file: file)
        #expect(shared.publicKey == VAPIDKey.derived(from: secret).publicKey && shared.publicKey != made.publicKey)
        #expect(VAPIDKey.derived(from: secret + [0x31]).publicKey != shared.publicKey)
        // A configured key wins; a broken one is an error that names the setting
        let configured = P256.Signing.PrivateKey()
        #expect(
            try VAPIDKey.load(configuredPEM: configured.pemRepresentation, sharedSecret: secret, file: file).publicKey
                == configured.publicKey.x963Representation.base64URLEncodedString())
        #expect(throws: ConfigurationError.self) { try VAPIDKey.load(configuredPEM: "nonsense", sharedSecret: nil, file: file) }
    }

    @Test(arguments: TestDatabase.available)
    func aReminderReachesEachSubscribedBrowserDecryptableAndSigned(_ database: TestDatabase) async throws {
        let pushService = LoopbackPushService()
        try await pushService.run { port in
            let server = try await TestServer.make(database) {
                $0.pushServices = ["127.0.0.1"]
                $0.reminderInterval = .seconds(3600)
                $0.workers = 1
            }
            try await server.run { api in
                let me = try await api.register()
                let listed = try await api.send(.get, "/v1/me/push-subscriptions", token: me.accessToken, expecting: .ok)
                let serverKey = try #require(listed.json["application_server_key"] as? String)
                #expect((listed.json["subscriptions"] as? [Any])?.isEmpty == true)

                // Bad subscriptions are refused and store nothing
                let browser = LoopbackPushService.Browser()
                let endpoint = "http://127.0.0.1:\(port)/push/laptop"
                func subscription(_ endpoint: String, p256dh: String = browser.p256dh, auth: String = browser.authText)
                    -> [String: Any]
                {
                    ["endpoint": endpoint, "keys": ["p256dh": p256dh, "auth": auth]]
                }
                var otherKey = subscription(endpoint)
                otherKey["application_server_key"] = P256.Signing.PrivateKey().publicKey.x963Representation
                    .base64URLEncodedString()
                for bad in [
                    subscription("https://169.254.169.254/latest"), subscription("http://192.168.1.1/push/x"),
                    subscription(endpoint, p256dh: "AAAA"), subscription(endpoint, auth: "AAAA"), otherKey,
                ] {
                    let reply = try await api.send(.post, "/v1/me/push-subscriptions", token: me.accessToken, json: bad)
                    #expect(reply.status == .unprocessableContent, "\(bad): \(reply.status) \(reply.text)")
                }
                #expect(pushService.requests(to: "laptop").isEmpty)

                // Given a subscribed browser (subscribing it again keeps one subscription)
                var good = subscription(endpoint)
                good["application_server_key"] = serverKey
                let made = try await api.send(
                    .post, "/v1/me/push-subscriptions", token: me.accessToken, json: good, expecting: .created)
                let id = try #require(made.json["id"] as? String)
                let again = try await api.send(
                    .post, "/v1/me/push-subscriptions", token: me.accessToken, json: good, expecting: .ok)
                #expect(again.json["id"] as? String == id)

                // When the person sends a test, the push service gets a message only that browser can read
                try await api.send(.post, "/v1/me/push-subscriptions/\(id)/test", token: me.accessToken, expecting: .noContent)
                let test = try #require(pushService.requests(to: "laptop").first)
                #expect(test.headers["content-encoding"] == "aes128gcm" && test.headers["ttl"] != nil)
                let (claims, key) = try LoopbackPushService.vapidClaims(try #require(test.headers["authorization"]))
                #expect(key == serverKey && claims["aud"] as? String == "http://127.0.0.1:\(port)")
                let expiry = try #require(claims["exp"] as? Int)
                #expect(expiry > Int(Date().timeIntervalSince1970) && expiry <= Int(Date().timeIntervalSince1970) + 24 * 3600)
                #expect((claims["sub"] as? String)?.hasPrefix("mailto:") == true)
                let message = try JSONDecoder().decode(
                    PushMessage.self, from: try LoopbackPushService.decrypt(test.body, for: browser))
                #expect(message == .test)
                #expect(throws: (any Error).self) { try LoopbackPushService.decrypt(test.body, for: .init()) }

                // And at the reminder's minute, with no entry that day, the reminder goes to the browser
                try await api.send(
                    .put, "/v1/me/reminder", token: me.accessToken,
                    json: ["time": "21:00", "tz": "Europe/Berlin", "days": ["sun"], "email": false], expecting: .ok)
                let queued = try await server.withDatabase { driver in
                    try await ReminderService(
                        reminders: ReminderStore(driver: driver), subscriptions: PushSubscriptionStore(driver: driver),
                        clock: { try! Date("2026-03-29T19:00:00Z", strategy: .iso8601) }, logger: Logger(label: "test")
                    ).round()
                }
                #expect(queued == 1)
                try await pollUntil("the reminder reached the push service") {
                    pushService.requests(to: "laptop").count == 2
                }
                let reminder = try #require(pushService.requests(to: "laptop").last)
                #expect(reminder.headers["topic"] == "reminder" && reminder.headers["ttl"] == "3600")
                #expect(
                    try JSONDecoder().decode(PushMessage.self, from: LoopbackPushService.decrypt(reminder.body, for: browser))
                        == .reminder)

                // A browser its push service no longer knows is ended at the first message
                let gone = LoopbackPushService.Browser()
                var goneSubscription = subscription(
                    "http://127.0.0.1:\(port)/push/gone-phone", p256dh: gone.p256dh, auth: gone.authText)
                goneSubscription["application_server_key"] = serverKey
                let goneID = try #require(
                    try await api.send(
                        .post, "/v1/me/push-subscriptions", token: me.accessToken, json: goneSubscription, expecting: .created
                    ).json["id"] as? String)
                try await api.send(.post, "/v1/me/push-subscriptions/\(goneID)/test", token: me.accessToken, expecting: .notFound)
                let left = try await api.send(.get, "/v1/me/push-subscriptions", token: me.accessToken, expecting: .ok)
                #expect((left.json["subscriptions"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])

                // A browser someone else signs in on and subscribes becomes theirs
                let other = try await api.register()
                try await api.send(.post, "/v1/me/push-subscriptions", token: other.accessToken, json: good, expecting: .created)
                let mine = try await api.send(.get, "/v1/me/push-subscriptions", token: me.accessToken, expecting: .ok)
                #expect((mine.json["subscriptions"] as? [Any])?.isEmpty == true)

                // Signing out everywhere ends every subscription
                try await api.send(.post, "/v1/auth/logout-all", token: other.accessToken, expecting: .noContent)
                try await server.withDatabase { driver in
                    let rest = try await PushSubscriptionStore(driver: driver).subscriptions(
                        userID: UUID(uuidString: other.userID)!)
                    #expect(rest.isEmpty)
                }
            }
        }
    }
}
