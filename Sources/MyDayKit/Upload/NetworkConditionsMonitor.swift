import Foundation

/// A `NetworkMonitor` fed with what the system reports about the network (`NWPathMonitor` on iOS) and the
/// person's "upload only on Wi-Fi" setting; uploads are allowed when connected, and, when the person asked, only
/// on a network the system does not call expensive (mobile data, a phone's hotspot).
public final class NetworkConditionsMonitor: NetworkMonitor, @unchecked Sendable {
    private struct State {
        var isConnected = true
        var isExpensive = true
        var wifiOnly: Bool
        var listeners: [UUID: AsyncStream<Bool>.Continuation] = [:]

        var allowsUploads: Bool { isConnected && (!wifiOnly || !isExpensive) }
    }

    private let lock = NSLock()
    private var state: State

    /// Until the first `update`, the network counts as connected (the queue's own retries cover a wrong guess) but
    /// expensive, so that "Wi-Fi only" never sends on mobile data by mistake.
    public init(wifiOnly: Bool) {
        state = State(wifiOnly: wifiOnly)
    }

    public var allowsUploads: Bool {
        lock.withLock { state.allowsUploads }
    }

    public func changes() -> AsyncStream<Bool> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in
            _ = self?.lock.withLock { self?.state.listeners.removeValue(forKey: id) }
        }
        lock.withLock { state.listeners[id] = continuation }
        return stream
    }

    /// What the system reports now.
    public func update(isConnected: Bool, isExpensive: Bool) {
        change {
            $0.isConnected = isConnected
            $0.isExpensive = isExpensive
        }
    }

    /// Whether an upload may use mobile data now: not when the person asked for Wi-Fi only.
    public var allowsExpensiveNetworks: Bool {
        lock.withLock { !state.wifiOnly }
    }

    /// The person's setting changed.
    public func setWiFiOnly(_ wifiOnly: Bool) {
        change { $0.wifiOnly = wifiOnly }
    }

    /// Applies `edit` and tells every listener when the answer to `allowsUploads` changed.
    private func change(_ edit: (inout State) -> Void) {
        let (before, after, listeners) = lock.withLock {
            let before = state.allowsUploads
            edit(&state)
            return (before, state.allowsUploads, Array(state.listeners.values))
        }
        guard before != after else { return }
        for listener in listeners { listener.yield(after) }
    }
}
