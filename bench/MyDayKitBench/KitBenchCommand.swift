import ArgumentParser
import Foundation
import MyDayKit

/// `myday-kit-bench`: the client core's measured parts, each printing one JSON line for `bench/kit`.
@main
struct KitBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "myday-kit-bench", abstract: "Measures MyDayKit's sync and waveform levels.",
        subcommands: [SyncBench.self, LevelsBench.self])
}

/// Options naming the server and the account whose diary is synced.
struct AccountOptions: ParsableArguments {
    @Option var server: String
    @Option var email: String
    @Option var password: String
}

/// Syncs an account's diary into a store in `--dir` (empty or not) and reports time, requests, bytes and peak RSS.
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync")

    @OptionGroup var account: AccountOptions
    @Option(help: "The folder of the local store.") var dir: String
    @Flag(help: "Only fetch and decode the pages (the baseline): no local store.") var pagesOnly = false

    func run() async throws {
        let transport = MeasuringTransport()
        let client = LiveMyDayClient(
            serverURL: URL(string: account.server)!, credentials: InMemoryCredentialStore(), transport: transport)
        _ = try await client.login(email: account.email, password: account.password)
        let store = try LocalStore(path: URL(fileURLWithPath: dir).appendingPathComponent("myday.sqlite").path)
        transport.reset()
        let start = ContinuousClock.now
        var pages = 0
        if pagesOnly {
            var cursor: String?
            repeat {
                let page = try await client.changes(since: cursor, limit: 200)
                cursor = page.nextCursor
                pages += 1
                if !page.hasMore { break }
            } while true
        } else {
            let library = try RecordingLibrary(root: URL(fileURLWithPath: dir).appendingPathComponent("library"))
            pages = try await SyncEngine(store: store, client: client, library: library).sync().pages
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        let report: [String: Any] = [
            "seconds": seconds, "pages": pages, "requests": transport.requests, "bytes": transport.bytes,
            "entries": try store.entries().count, "peak_rss_mb": Self.peakMegabytes(usage.ru_maxrss),
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: .sortedKeys), as: UTF8.self))
    }

    /// `ru_maxrss` is in kilobytes on Linux and in bytes on Apple platforms.
    private static func peakMegabytes(_ maxrss: Int) -> Double {
        #if os(Linux)
            Double(maxrss) / 1024
        #else
            Double(maxrss) / 1_048_576
        #endif
    }
}

/// Feeds 4096-sample buffers into `WaveformLevels` and copies the same buffers, reporting nanoseconds per buffer.
struct LevelsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "levels")

    @Option var buffers = 200_000

    func run() async throws {
        let samples = (0..<4096).map { Float(sin(Double($0) / 7)) * 0.5 }
        var copy = [Float](repeating: 0, count: samples.count)
        var levels = WaveformLevels()
        let copying = nanosecondsPerBuffer {
            samples.withUnsafeBytes { source in copy.withUnsafeMutableBytes { $0.copyMemory(from: source) } }
            blackHole(copy[Int.random(in: 0..<4096)])
        }
        let feeding = nanosecondsPerBuffer {
            samples.withUnsafeBufferPointer { levels.append(samples: $0) }
            blackHole(levels.bars.last ?? 0)
        }
        let report: [String: Any] = ["rms_ring_ns": feeding, "copy_ns": copying, "buffers": buffers]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: .sortedKeys), as: UTF8.self))
    }

    private func nanosecondsPerBuffer(_ body: () -> Void) -> Double {
        for _ in 0..<1000 { body() }
        let start = ContinuousClock.now
        for _ in 0..<buffers { body() }
        return (ContinuousClock.now - start) / .nanoseconds(1) / Double(buffers)
    }
}

/// Keeps the optimiser from removing work whose result is otherwise unused.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
