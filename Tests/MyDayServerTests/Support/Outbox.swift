import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayServer

/// The mail a test server wrote to its outbox folder (the default mailer), read as a person would read it.
extension TestServer {
    /// The public URL the mailing tests configure: links in mail must start with it, whatever `Host` a request named.
    static let publicURL = "https://diary.example"

    /// A server that mails (a public URL, and a worker that runs the mail jobs), into its outbox.
    static func mailing(_ database: TestDatabase, _ adjust: @escaping (inout ServerConfiguration) -> Void = { _ in })
        async throws -> TestServer
    {
        try await make(database) {
            $0.workers = 1
            $0.publicURL = publicURL
            adjust(&$0)
        }
    }

    /// Every mail in the outbox, oldest first (by when its file was written: names hold the second only).
    func mails() -> [String] {
        let folder = configuration.outboxDirectory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".eml") }
        let written = names.map { name -> (name: String, at: Date) in
            let url = folder.appendingPathComponent(name)
            return (
                name, (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            )
        }
        return written.sorted { ($0.at, $0.name) < ($1.at, $1.name) }.compactMap {
            try? String(contentsOf: folder.appendingPathComponent($0.name), encoding: .utf8)
        }
    }

    /// The mails to `address` whose subject contains `subject`.
    func mails(to address: String, subject: String) -> [String] {
        mails().filter { $0.contains("To: \(address)\r\n") && $0.contains(subject) }
    }

    /// Waits until `count` mails to `address` about `subject` are in the outbox; answers the newest.
    func awaitMail(to address: String, subject: String, count: Int = 1) async throws -> String {
        try await pollUntil("\(count) mail(s) '\(subject)' to \(address)") { mails(to: address, subject: subject).count >= count }
        return try #require(mails(to: address, subject: subject).last)
    }

    /// Waits until no mail job is queued or running: every mail the jobs queued so far would send is in the outbox.
    func awaitMailJobsRun() async throws {
        try await pollUntil("the mail jobs ran", deadline: .seconds(60), every: .milliseconds(100)) {
            try await withDatabase { driver in
                try await driver.read { db in
                    try await db.raw(
                        "SELECT COUNT(*) AS n FROM jobs WHERE kind LIKE 'mail_%' AND state IN ('queued', 'running')"
                    ).first()!.decode(column: "n", as: Int.self) == 0
                }
            }
        }
    }

    /// The token at the end of a `#/<page>/<token>` link in `mail`.
    static func token(in mail: String, page: String) throws -> String {
        try #require(mail.firstMatch(of: try Regex("#/\(page)/([A-Za-z0-9_-]+)"))?.output[1].substring.map(String.init))
    }
}

extension APIClient {
    /// Confirms `address` with the link of the verification mail the server sent it, opened by the account's creator
    /// (signed in with `session`).
    func confirmAddress(_ address: String, session: Session, on server: TestServer) async throws {
        let mail = try await server.awaitMail(to: address, subject: "Confirm your email address")
        let token = try TestServer.token(in: mail, page: "verify")
        let reply = try await send(.post, "/v1/auth/email/verify", token: session.accessToken, json: ["token": token])
        try #require(reply.status == .ok, "\(reply.text)")
    }
}
