import Foundation
import MyDayKit
import Network

/// Feeds `NetworkConditionsMonitor` from `NWPathMonitor`: whether this iPhone is online, and whether the network is
/// expensive (mobile data, or a phone's Personal Hotspot over Wi-Fi), which "Wi-Fi only" avoids.
final class PathNetworkMonitor {
    private let monitor = NWPathMonitor()

    init(feeding conditions: NetworkConditionsMonitor) {
        monitor.pathUpdateHandler = { path in
            conditions.update(isConnected: path.status == .satisfied, isExpensive: path.isExpensive)
        }
        monitor.start(queue: DispatchQueue(label: "MyDay.PathNetworkMonitor"))
    }

    deinit {
        monitor.cancel()
    }
}
