import Foundation
import MyDayTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Requests that are certainly under way at the server together: each on a connection of its own, sent but for its
/// last bytes, held until the server has read all the rest of every one of them (as the kernel's socket table shows)
/// and answered none; then all are let go at once. Without this, requests a test sends "at once" may well reach the
/// server one after another (the test client sends on one connection, in turn).
struct HeldRequests {
    struct Request {
        let source: String
        let sent: Data
        let held: Data

        /// A request with a body (`head` ends with its blank line, after its `Content-Length`), held back by the body's
        /// last byte: the server has its head and waits for the rest of the body.
        static func withBody(from source: String = "127.0.0.1", head: String, body: Data) -> Request {
            Request(source: source, sent: Data(head.utf8) + body.dropLast(), held: body.suffix(1))
        }
    }

    struct Answer {
        let status: Int
        let body: String
        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    }

    /// Sends `requests` (each asking for `Connection: close`) to the server on loopback `port`, lets them go together
    /// once the server has taken in every one, and answers each one's status and body, in order.
    static func exchange(port: Int, _ requests: [Request]) async throws -> [Answer] {
        var connections: [RawHTTP] = []
        defer { for connection in connections { connection.close() } }
        for request in requests {
            let connection = try RawHTTP.open(port: port, from: request.source)
            connections.append(connection)
            try connection.send(request.sent)
        }
        let clients = try zip(connections, requests).map { connection, request in
            (address: request.source, port: try connection.localPort())
        }
        try await pollUntil("the server has read every request up to its held last bytes", deadline: .seconds(60)) {
            let sockets = try LoopbackSockets.read()
            return clients.allSatisfy { sockets.serverHasReadAll(from: $0.address, port: $0.port, serverPort: port) }
        }
        #expect(
            connections.allSatisfy { !$0.hasHeardFromServer() }, "a request was answered before all of them were under way")
        for (connection, request) in zip(connections, requests) { try connection.send(request.held) }
        let replies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, connection) in connections.enumerated() {
                group.addTask { (index, try await onDedicatedThread { connection.readAll() }) }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        return connections.indices.map { index in
            let text = replies[index] ?? ""
            return Answer(
                status: text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0,
                body: text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n"))
        }
    }
}

/// The IPv4 TCP sockets of this machine, as `/proc/net/tcp` lists them: who is connected to whom, and how many bytes
/// each has received that its process has not read yet.
struct LoopbackSockets {
    struct Socket {
        let local: String
        let remote: String
        let state: String
        let sendQueue: Int
        let receiveQueue: Int
    }

    let sockets: [Socket]

    static func read() throws -> LoopbackSockets {
        // Read to its end in a loop: the kernel writes the table as it is read, and says its size is 0.
        let file = open("/proc/net/tcp", O_RDONLY)
        guard file >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(file, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        let table = String(decoding: bytes, as: UTF8.self)
        let sockets = table.split(separator: "\n").dropFirst().compactMap { line -> Socket? in
            let fields = line.split(separator: " ")
            guard fields.count > 4 else { return nil }
            let queues = fields[4].split(separator: ":")
            guard queues.count == 2, let send = Int(queues[0], radix: 16), let receive = Int(queues[1], radix: 16) else {
                return nil
            }
            return Socket(
                local: String(fields[1]), remote: String(fields[2]), state: String(fields[3]), sendQueue: send,
                receiveQueue: receive)
        }
        return LoopbackSockets(sockets: sockets)
    }

    /// An address as the table writes it: the IPv4 address as the kernel's 32-bit word, and the port, in hex.
    static func name(_ address: String, _ port: Int) -> String {
        String(format: "%08X:%04X", inet_addr(address), port)
    }

    /// Whether the connection from `address:port` to the server on 127.0.0.1:`serverPort` is established, with every
    /// byte the client sent delivered and read by the server's process.
    func serverHasReadAll(from address: String, port: Int, serverPort: Int) -> Bool {
        let client = Self.name(address, port)
        let server = Self.name("127.0.0.1", serverPort)
        let established = "01"
        guard let clientSide = sockets.first(where: { $0.local == client && $0.remote == server }),
            let serverSide = sockets.first(where: { $0.local == server && $0.remote == client })
        else { return false }
        return clientSide.state == established && serverSide.state == established && clientSide.sendQueue == 0
            && serverSide.receiveQueue == 0
    }
}

extension RawHTTP {
    /// The port this end of the connection was given.
    func localPort() throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { throw POSIXError(.EBADF) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
