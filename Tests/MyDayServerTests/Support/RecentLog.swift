import Foundation
import Logging
import Synchronization

/// Keeps what a test's server logged, to tell why it did not stop: every line of its service group (which service was
/// asked to stop, which finished) and the last lines of everything else at info and above. Warnings and errors also go
/// to standard error as they come, as a plain logger's would.
final class RecentLog: Sendable {
    private struct Lines {
        var lifecycle: [String] = []
        var other: [String] = []
    }

    private let lines = Mutex(Lines())
    private static let kept = 80

    /// A logger at debug level that writes here.
    func logger(label: String) -> Logger {
        var logger = Logger(label: label) { _ in Handler(log: self) }
        logger.logLevel = .debug
        return logger
    }

    /// The lines kept, service group's first.
    var text: String {
        lines.withLock { lines in
            (["service group:"] + lines.lifecycle + ["last lines:"] + lines.other).joined(separator: "\n")
        }
    }

    fileprivate func record(_ line: String, lifecycle: Bool) {
        lines.withLock { lines in
            if lifecycle {
                lines.lifecycle.append(line)
                if lines.lifecycle.count > Self.kept * 4 { lines.lifecycle.removeFirst(Self.kept) }
            } else {
                lines.other.append(line)
                if lines.other.count > Self.kept { lines.other.removeFirst() }
            }
        }
    }

    private struct Handler: LogHandler {
        let log: RecentLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug
        private let stream = StreamLogHandler.standardError(label: "myday-test")

        init(log: RecentLog) { self.log = log }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let lifecycle = event.source == "ServiceLifecycle"
            guard lifecycle || event.level >= .info else { return }
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let stamp = Date().formatted(.iso8601.time(includingFractionalSeconds: true))
            let line = "\(stamp) \(event.level) [\(event.source)] \(event.message) \(fields)"
            log.record(line, lifecycle: lifecycle)
            guard event.level >= .warning else { return }
            var shown = event
            shown.metadata = all
            stream.log(event: shown)
        }
    }
}
