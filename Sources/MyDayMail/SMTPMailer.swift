import Foundation
import MyDayModels
import NIOCore
import NIOPosix
import NIOSSL

/// Sends mail to an SMTP server (RFC 5321): `smtps://` speaks TLS from the start; `smtp://` upgrades
/// with STARTTLS whenever the server offers it, and sends a password in the clear only to loopback.
/// Credentials come from the URL (`smtp://user:password@host:587`) and go as AUTH PLAIN.
package struct SMTPMailer: Mailer {
    package let url: URL
    package let from: String
    /// A PEM file of the CA to trust for the server's certificate (a private relay's, say).
    package var caFile: String?

    package init(url: URL, from: String, caFile: String? = nil) {
        self.url = url
        self.from = from
        self.caFile = caFile
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The longest a whole conversation may take; a server that stops answering fails the send.
    package var timeout: Duration = .seconds(60)

    package func send(_ message: MailMessage) async throws {
        do {
            try await withTimeLimit(timeout) { try await converse(message) }
        } catch is TimeLimitExceeded {
            throw Failure(description: "the SMTP server did not finish within \(timeout)")
        }
    }

    private func converse(_ message: MailMessage) async throws {
        guard let host = url.host else { throw Failure(description: "the SMTP URL names no host") }
        let implicitTLS = url.scheme == "smtps"
        let port = url.port ?? (implicitTLS ? 465 : 587)
        let tls = try makeTLSContext()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(15))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(try Self.tlsHandler(tls, host: host))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(replies: inbound.makeAsyncIterator(), outbound: outbound)
            try await session.expect(220)
            var extensions = try await session.command("EHLO myday", expect: 250)
            if !implicitTLS && extensions.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) {
                try await session.command("STARTTLS", expect: 220)
                let pipeline = channel.channel.pipeline
                try await channel.channel.eventLoop.submit {
                    try pipeline.syncOperations.addHandler(try Self.tlsHandler(tls, host: host), position: .first)
                }.get()
                extensions = try await session.command("EHLO myday", expect: 250)
            } else if !implicitTLS && url.user != nil && !Loopback.isHost(host) {
                throw Failure(description: "the SMTP server offers no STARTTLS; the password is not sent in the clear")
            }
            if let user = url.user?.removingPercentEncoding {
                let password = url.password?.removingPercentEncoding ?? ""
                let token = Data("\0\(user)\0\(password)".utf8).base64EncodedString()
                try await session.command("AUTH PLAIN \(token)", expect: 235)
            }
            try await session.command("MAIL FROM:<\(MailAddress(from).address)>", expect: 250)
            try await session.command("RCPT TO:<\(message.to)>", expect: 250, 251)
            try await session.command("DATA", expect: 354)
            let text = OutboxMailer.rfc5322(message, from: from, date: Date(), messageID: "<\(UUID().lowercasedString)@myday>")
            // Dot-stuffing: a line that starts with "." gets another, so it never ends the data early.
            let stuffed = text.replacingOccurrences(of: "\r\n.", with: "\r\n..")
            try await session.command(stuffed + ".", expect: 250)
            _ = try? await session.command("QUIT", expect: 221)
        }
    }

    private func makeTLSContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }

    private static func tlsHandler(_ context: NIOSSLContext, host: String) throws -> NIOSSLClientHandler {
        // SNI takes names only; a server reached by IP address is checked against its certificate without it.
        let isAddress = host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
        return try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : host)
    }
}

/// The reply-by-reply conversation of one SMTP connection.
private struct SMTPSession {
    package var replies: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    package let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var pending = ""

    package init(
        replies: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) {
        self.replies = replies
        self.outbound = outbound
    }

    /// Sends a command line and waits for its reply; answers the reply's text lines.
    @discardableResult
    mutating func command(_ line: String, expect codes: Int...) async throws -> [String] {
        do {
            try await outbound.write(ByteBuffer(string: line + "\r\n"))
        } catch let closed as ChannelError where closed == .ioOnClosedChannel {
            // The connection closed under the write; why (a refused certificate, a reset) is what the reader sees.
            _ = try await expect(codes)
            throw closed
        }
        return try await expect(codes)
    }

    @discardableResult
    mutating func expect(_ codes: Int...) async throws -> [String] { try await expect(codes) }

    /// Reads one reply (its continuation lines `250-…` up to the last `250 …`) and checks its code.
    mutating func expect(_ codes: [Int]) async throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try await nextLine()
            guard line.count >= 3, let code = Int(line.prefix(3)) else {
                throw SMTPMailer.Failure(description: "the SMTP server answered '\(line.prefix(80))'")
            }
            lines.append(String(line.dropFirst(4)))
            guard line.dropFirst(3).first == "-" else {
                guard codes.contains(code) else {
                    throw SMTPMailer.Failure(description: "the SMTP server answered \(line.prefix(120))")
                }
                return lines
            }
        }
    }

    private mutating func nextLine() async throws -> String {
        while true {
            if let end = pending.range(of: "\r\n") {
                let line = String(pending[..<end.lowerBound])
                pending.removeSubrange(..<end.upperBound)
                return line
            }
            guard let buffer = try await replies.next() else {
                throw SMTPMailer.Failure(description: "the SMTP server closed the connection")
            }
            pending += String(buffer: buffer)
        }
    }
}
