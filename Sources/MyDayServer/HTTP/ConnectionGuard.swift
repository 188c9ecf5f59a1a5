import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// How many connections each client address holds open, for the cap of `ConnectionGuard`.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Counts one more connection from `address`; false (nothing counted) when it holds `limit` already.
    func admit(_ address: String) -> Bool {
        open.withLockedValue { open in
            guard open[address, default: 0] < limit else { return false }
            open[address, default: 0] += 1
            return true
        }
    }

    func release(_ address: String) {
        open.withLockedValue { open in
            let left = open[address, default: 1] - 1
            open[address] = left > 0 ? left : nil
        }
    }

    /// Connections open now, from every address.
    var total: Int { open.withLockedValue { $0.values.reduce(0, +) } }
}

/// One per connection, between the HTTP decoder and Hummingbird: refuses a connection whose address holds as many as
/// it may (when the server faces clients directly), and closes one whose request body stops arriving for
/// `bodyStallLimit`. Headers are bounded by Hummingbird's idle timeout: the decoder hands a request on only once its
/// headers are complete, and until then the connection counts as idle.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let addresses: ConnectionsPerAddress?
    private let bodyStallLimit: TimeAmount
    private var counted: String?
    private var stall: Scheduled<Void>?

    init(addresses: ConnectionsPerAddress?, bodyStallLimit: TimeAmount) {
        self.addresses = addresses
        self.bodyStallLimit = bodyStallLimit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let addresses, let address = context.channel.remoteAddress?.ipAddress else { return }
        if addresses.admit(address) {
            counted = address
        } else {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stall?.cancel()
        stall = nil
        if let counted { addresses?.release(counted) }
        counted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head, .body: awaitMoreBody(context)
        case .end:
            stall?.cancel()
            stall = nil
        }
        context.fireChannelRead(data)
    }

    /// (Re)starts the wait for the next part of the request: when it runs out, the connection closes.
    private func awaitMoreBody(_ context: ChannelHandlerContext) {
        stall?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        stall = context.eventLoop.scheduleTask(in: bodyStallLimit) { bound.value.close(promise: nil) }
    }
}
