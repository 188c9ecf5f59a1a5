/// Tells the upload queue whether it may use the network now (online, and Wi-Fi when the person asked for it).
///
/// The iOS app implements it on `NWPathMonitor`; the CLI assumes it is online and lets requests fail.
public protocol NetworkMonitor: Sendable {
    var allowsUploads: Bool { get async }
    /// Yields whenever `allowsUploads` may have changed.
    func changes() -> AsyncStream<Bool>
}

/// A monitor that always allows uploads; failed requests are retried by the queue's backoff.
public struct AssumeOnline: NetworkMonitor {
    public init() {}
    public var allowsUploads: Bool { true }
    public func changes() -> AsyncStream<Bool> { AsyncStream { $0.finish() } }
}
