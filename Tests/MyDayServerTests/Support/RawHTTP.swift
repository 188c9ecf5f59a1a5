import Foundation
import MyDayTestSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A bare TCP connection, to send part of a request and drop it as a phone losing signal does.
struct RawHTTP {
    let socket: Int32

    /// Sends one whole request from `source` (any 127.x.y.z address is this machine) and answers the status and body.
    /// It blocks while it reads: call it through `onDedicatedThread`.
    static func exchange(port: Int, from source: String, head: String, body: Data) throws -> (status: Int, body: String) {
        let connection = try open(port: port, from: source)
        defer { connection.close() }
        try connection.send(Data(head.utf8) + body)
        let text = connection.readAll()
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func open(port: Int, from source: String? = nil) throws -> RawHTTP {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        if let source, withAddress(source, port: 0, { bind(socket, $0, $1) }) != 0 {
            Glibc.close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        guard withAddress("127.0.0.1", port: port, { connect(socket, $0, $1) }) == 0 else {
            Glibc.close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
        return RawHTTP(socket: socket)
    }

    /// Calls `body` (bind or connect) with an IPv4 socket address.
    private static func withAddress(
        _ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    func send(_ bytes: Data) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Everything the server sends until it closes the connection. Blocks: call it through `onDedicatedThread`.
    func readAll() -> String {
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: response, as: UTF8.self)
    }

    func close() { Glibc.close(socket) }

    /// Whether the server has closed the connection, without waiting: a read finds the end (or a reset) at once.
    func isClosedByServer() -> Bool {
        let count = peek()
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Whether the server has answered or closed, without waiting: anything but silence.
    func hasHeardFromServer() -> Bool { peek() > 0 || isClosedByServer() }

    private func peek() -> Int {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
    }
}

/// A loopback port that takes connections and never answers: a speech service or a database that hangs.
final class SilentListener: Sendable {
    let socket: Int32
    let port: Int
    private let taken = Mutex<[Int32]>([])

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && listen(socket, 64) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Returns once a client has connected; its connection stays open, unanswered, as long as the listener.
    func awaitConnection() async throws {
        try await pollUntil("a client connects") {
            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&waiting, 1, 0) == 1 else { return false }
            let connection = accept(socket, nil, nil)
            if connection >= 0 { taken.withLock { $0.append(connection) } }
            return connection >= 0
        }
    }

    deinit {
        for connection in taken.withLock({ $0 }) { Glibc.close(connection) }
        Glibc.close(socket)
    }
}
