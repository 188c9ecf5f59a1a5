import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// The rule behind the iOS app's network monitor and its "upload only on Wi-Fi" setting.
@Suite struct NetworkConditionsMonitorTests {
    @Test func uploadsNeedAConnectionAndWiFiWhenThePersonAskedForIt() {
        let monitor = NetworkConditionsMonitor(wifiOnly: false)
        #expect(monitor.allowsUploads)
        monitor.update(isConnected: true, isExpensive: true)
        #expect(monitor.allowsUploads, "cellular is fine by default")
        monitor.setWiFiOnly(true)
        #expect(!monitor.allowsUploads, "not on cellular when Wi-Fi only")
        monitor.update(isConnected: true, isExpensive: false)
        #expect(monitor.allowsUploads)
        monitor.update(isConnected: false, isExpensive: true)
        #expect(!monitor.allowsUploads, "never offline")
    }

    @Test func everyListenerHearsOnlyRealChanges() async throws {
        let monitor = NetworkConditionsMonitor(wifiOnly: true)
        var first = monitor.changes().makeAsyncIterator()
        var second = monitor.changes().makeAsyncIterator()
        monitor.update(isConnected: true, isExpensive: false)
        #expect(await first.next() == true)
        monitor.update(isConnected: true, isExpensive: false)
        monitor.update(isConnected: true, isExpensive: true)
        #expect(await first.next() == false, "the repeated report changed nothing")
        monitor.setWiFiOnly(false)
        #expect(await first.next() == true)
        // The second listener buffers only the newest answer
        #expect(await second.next() == true)
    }

    @Test func theQueueWaitsForWiFiAndGoesOnItsOwnWhenItComes() async throws {
        // Given a queued recording, Wi-Fi only, and the phone on cellular
        let harness = CoreHarness()
        let id = UUID()
        let temporary = try harness.library.beginRecording(id: id, startedAt: Given.now, timeZone: Given.paris, container: .wav)
        try TestMedia.wav(seconds: 1).write(to: temporary)
        try harness.store.recordFinished(try harness.library.finishRecording(id: id), now: Given.now)
        let monitor = NetworkConditionsMonitor(wifiOnly: true)
        monitor.update(isConnected: true, isExpensive: true)
        let target = UploadTarget(url: URL(string: "http://127.0.0.1:9/v1/blobs/x")!, headers: [:], expiresAt: Given.now)
        var client = FakeMyDayClient()
        client.onCreateEntry = { entry in CreatedEntry(entry: Given.serverEntry(entry.id, status: .pendingUpload), upload: target)
        }
        client.onCompleteUpload = { id, _ in Given.serverEntry(id, status: .uploaded, transcript: nil) }
        let queue = UploadQueue(
            store: harness.store, client: client, uploader: FakeBlobUploader(answers: [nil]), library: harness.library,
            network: monitor, now: { Given.now })

        // When the queue works, then nothing is sent on cellular
        #expect(try await queue.sendDue().pausedBecause == "offline")
        let runner = Task { await queue.run() }
        defer { runner.cancel() }

        // When Wi-Fi comes, then the queue sends without being asked
        monitor.update(isConnected: true, isExpensive: false)
        try await pollUntil("uploaded on Wi-Fi") { try harness.store.entry(id)?.state == .uploaded }
    }
}

extension NetworkConditionsMonitorTests {
    @Test func wiFiOnlyWaitsForTheFirstReportAndForbidsMobileDataToTheTransfer() {
        let monitor = NetworkConditionsMonitor(wifiOnly: true)
        #expect(!monitor.allowsUploads, "nothing is known yet: it may be mobile data")
        #expect(!monitor.allowsExpensiveNetworks)
        monitor.setWiFiOnly(false)
        #expect(monitor.allowsExpensiveNetworks && monitor.allowsUploads)
    }
}
