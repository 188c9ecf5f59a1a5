import Foundation
import MyDayKit
import Network

/// Feeds `NetworkConditionsMonitor` from `NWPathMonitor`: whether this iPhone is online, and over Wi-Fi or a wire.
final class PathNetworkMonitor {
    private let monitor = NWPathMonitor()

    init(feeding conditions: NetworkConditionsMonitor) {
        monitor.pathUpdateHandler = { path in
            conditions.update(
                isConnected: path.status == .satisfied,
                isWiFiOrWired: path.usesInterfaceType(.wifi) || path.usesInterfaceType(.wiredEthernet))
        }
        monitor.start(queue: DispatchQueue(label: "MyDay.PathNetworkMonitor"))
    }

    deinit {
        monitor.cancel()
    }
}
