import ChildProcesses
import Foundation
import Hummingbird
import MyDayMail
import MyDayTestSupport
import NIOSSL
import OpenAIStandIns
import Synchronization
import Testing

@testable import MyDayServer

/// aiosmtpd on loopback (STARTTLS required, one user), started from `.build/python`, with a
/// certificate made here by openssl.
final class SMTPStandIn: Sendable {
    let folder = TestFolder.path("myday-smtp")
    let server: ChildProcess
    let port: Int
    var certificate: URL { folder.appendingPathComponent("cert.pem") }
    var inbox: URL { folder.appendingPathComponent("inbox") }

    init(user: String, password: String) async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/python/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "run scripts/install-python-tools first")
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem")
        try await ChildProcess.succeed(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out",
                folder.appendingPathComponent(
                    "cert.pem"
                ).path, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            ])
        server = try ChildProcess(
            python.path,
            [
                root.appendingPathComponent("Tests/Tools/smtp_server.py").path, inbox.path,
                folder.appendingPathComponent("cert.pem").path, key.path, user, password,
            ])
        port = try await server.waitUntil { snapshot in
            String(decoding: snapshot.standardOutput, as: UTF8.self).firstMatch(of: /ready (\d+)/).flatMap { Int($0.1) }
        }
    }

    func messages() -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: inbox.path)) ?? []).filter { $0.hasSuffix(".eml") }
            .sorted()
        return names.compactMap { try? String(contentsOf: inbox.appendingPathComponent($0), encoding: .utf8) }
    }

    deinit {
        server.signal(SIGKILL)
        try? FileManager.default.removeItem(at: folder)
    }
}

@Suite(.serialized) struct MailTests {
    let message = MailMessage(
        to: "person@example.com", subject: "Your My Day export is ready",
        body: "Download it here:\nhttps://diary.example.com/v1/blobs/exports/x?signature=y\n.\nA line with only a dot stayed.")

    @Test func smtpUpgradesWithStartTLSAuthenticatesAndDelivers() async throws {
        let server = try await SMTPStandIn(user: "myday", password: "s3cret pass")
        let mailer = SMTPMailer(
            url: URL(string: "smtp://myday:s3cret%20pass@localhost:\(server.port)")!, from: "My Day <diary@example.com>",
            caFile: server.certificate.path)
        try await mailer.send(message)
        try await pollUntil("the message arrives") { !server.messages().isEmpty }
        let delivered = try #require(server.messages().first)
        #expect(delivered.contains("X-Test-Auth: myday\r\n") && delivered.contains("X-Test-TLS: True\r\n"))
        #expect(delivered.contains("X-Test-Rcpt: person@example.com\r\n"))
        #expect(
            delivered.contains("Subject: Your My Day export is ready\r\n")
                && delivered.contains("From: My Day <diary@example.com>"))
        #expect(delivered.contains("\r\n.\r\nA line with only a dot stayed."))
    }

    @Test func smtpRefusesAWrongPasswordAndAnUntrustedCertificate() async throws {
        let server = try await SMTPStandIn(user: "myday", password: "right")
        let wrong = SMTPMailer(
            url: URL(string: "smtp://myday:wrong@localhost:\(server.port)")!, from: "diary@example.com",
            caFile: server.certificate.path)
        // the server refuses the credentials themselves (535), after STARTTLS, at AUTH: not some other failure
        let refused = await #expect(throws: SMTPMailer.Failure.self) { try await wrong.send(message) }
        #expect(
            refused?.description.hasPrefix("the SMTP server answered 535 5.7.8 Authentication credentials invalid") == true,
            "\(String(describing: refused))")
        let untrusted = SMTPMailer(
            url: URL(string: "smtp://myday:right@localhost:\(server.port)")!, from: "diary@example.com", caFile: nil)
        // the server's self-signed certificate is not trusted without its CA: the TLS handshake fails
        let failure = await #expect(throws: NIOSSLError.self) { try await untrusted.send(message) }
        #expect(String(describing: failure).contains("CERTIFICATE_VERIFY_FAILED"))
        #expect(server.messages().isEmpty)
    }

    @Test func sendGridGetsItsRequestFormat() async throws {
        let received = Mutex<[(authorization: String?, body: Data)]>([])
        let status = Mutex(202)
        let router = Router()
        router.post("/v3/mail/send") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0.append((request.headers[.authorization], Data(buffer: body))) }
            return Response(status: .init(code: status.withLock { $0 }))
        }
        try await LoopbackApp.run(router) { port in
            let mailer = SendGridMailer(
                baseURL: "http://127.0.0.1:\(port)", apiKey: "SG.test-key", from: "My Day <diary@example.com>")
            try await mailer.send(message)
            let request = try #require(received.withLock { $0.first })
            #expect(request.authorization == "Bearer SG.test-key")
            let json = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            let to = ((json["personalizations"] as? [[String: Any]])?.first?["to"] as? [[String: Any]])?.first?["email"]
            #expect(to as? String == "person@example.com")
            #expect((json["from"] as? [String: String]) == ["email": "diary@example.com", "name": "My Day"])
            #expect(json["subject"] as? String == message.subject)
            #expect((json["content"] as? [[String: String]])?.first == ["type": "text/plain", "value": message.body])

            // A refusal (a revoked key, say) is an error the mail job retries
            status.withLock { $0 = 401 }
            await #expect(throws: SendGridMailer.Failure.self) { try await mailer.send(message) }
        }
    }
}
