import Foundation
import HTTPTypes
import MyDayModels
import MyDayTestSupport
import OpenAPIRuntime
import Testing

@testable import MyDayKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `LiveMyDayClient` against the real server on loopback.
@Suite struct LiveClientTests {
    @Test func twentyConcurrentRequestsWithAnExpiringTokenMakeExactlyOneRefresh() async throws {
        // Given a signed-in client whose clock says its access token is about to expire, and a transport that holds
        // every refresh request until the test lets it go
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "0"])
        let refreshes = Gate()
        let transport = CountingTransport(DefaultTransport.make(), holding: "refreshSession", until: refreshes)
        let clock = ShiftedClock()
        let client = LiveMyDayClient(
            serverURL: server.url, credentials: InMemoryCredentialStore(), transport: transport, now: clock.now)
        _ = try await client.register(email: "busy@example.com", password: "a long diary password")
        clock.shift(by: 15 * 60 - 30)
        let readsBefore = clock.reads

        // When 20 requests go out at once
        let requests = Task {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await client.me().email } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // and all 20 want a new token while the refresh is held (each reads the clock once to find its token expiring,
        // then joins or starts a refresh without suspending in between)
        try await pollUntil("all 20 requests wait for a token while a refresh is held", deadline: .seconds(60)) {
            clock.reads - readsBefore == 20 && refreshes.waiterCount >= 1
        }
        refreshes.open()
        let emails = try await requests.value

        // Then all succeed after exactly one refresh (a second would also trip the server's reuse detection)
        #expect(emails == Array(repeating: "busy@example.com", count: 20))
        #expect(transport.count(of: "refreshSession") == 1)
        #expect(transport.count(of: "getMe") == 20)
    }

    @Test func aRevokedSessionSignsOutCleanly() async throws {
        // Given a client whose session another device ended with "sign out everywhere"
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "0"])
        let store = InMemoryCredentialStore()
        let clock = ShiftedClock()
        let client = LiveMyDayClient(serverURL: server.url, credentials: store, now: clock.now)
        _ = try await client.register(email: "gone@example.com", password: "a long diary password")
        let other = LiveMyDayClient(serverURL: server.url, credentials: InMemoryCredentialStore())
        _ = try await other.login(email: "gone@example.com", password: "a long diary password")
        try await other.logoutEverywhere()
        // When the first client needs a new token, then its session ends and nothing is kept
        clock.shift(by: 15 * 60)
        await #expect(throws: MyDayClientError.sessionEnded) { try await client.me() }
        #expect(try store.load() == nil)
    }

    @Test func aRecordingTranscribedOnTheDeviceIsCleanedByTheServerNotHeardAgain() async throws {
        // Given a signed-in device with a recording whose words the device heard itself
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "1"])
        let core = try ClientCore.live(
            directory: Given.folder(), serverURL: server.url, credentials: InMemoryCredentialStore())
        try await core.signIn { try await $0.register(email: "rower@example.com", password: "a long diary password") }
        let audio = Given.folder().appendingPathComponent("harbour.m4a")
        try await TestSpeech.m4a(TestSpeech.diarySentence).write(to: audio)
        let recording = try core.library.importFile(audio, startedAt: Date(), timeZone: Given.paris, language: "en-GB")
        try core.store.recordFinished(recording, awaitingDeviceTranscript: true)
        let heard = DeviceTranscript(
            text: "Um, I rowed across the harbour.",
            pieces: [
                .init(text: "Um,", start: 0, end: 0.3), .init(text: "I rowed", start: 0.4, end: 0.9),
                .init(text: "across the harbour.", start: 1, end: 2),
            ], engine: "apple-speech", language: "en-GB")
        try core.store.attachDeviceTranscript(heard, to: recording.id)

        // When the queue sends it through the live client, and the device syncs until it is transcribed
        #expect(try await core.uploads.sendDue().uploaded == 1)
        try await pollUntil("transcribed", every: .milliseconds(200)) {
            _ = try await core.syncEngine.sync()
            return try core.store.entry(recording.id)?.state == .transcribed
        }

        // Then the server kept the device's words and only cleaned them
        let entry = try #require(try core.store.entry(recording.id))
        #expect(entry.transcriptRaw == "Um, I rowed across the harbour.")
        #expect(entry.transcriptClean?.lowercased().split { !$0.isLetter } == ["i", "rowed", "across", "the", "harbour"])
    }

    @Test func aChangeMadeOnOneDeviceReachesAnotherThroughTheChangeFeedWithoutAskingForIt() async throws {
        // Given two devices of one account; the second follows the change feed
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "0"])
        let phone = try ClientCore.live(directory: Given.folder(), serverURL: server.url, credentials: InMemoryCredentialStore())
        try await phone.signIn { try await $0.register(email: "two@example.com", password: "a long diary password") }
        let transport = CountingTransport(DefaultTransport.make())
        let folder = Given.folder()
        let laptop = ClientCore(
            store: try LocalStore(path: folder.appendingPathComponent("myday.sqlite").path),
            library: try RecordingLibrary(root: folder.appendingPathComponent("library")),
            client: LiveMyDayClient(serverURL: server.url, credentials: InMemoryCredentialStore(), transport: transport),
            uploader: HTTPBlobUploader())
        try await laptop.signIn { try await $0.login(email: "two@example.com", password: "a long diary password") }
        let syncs = Gate()
        let following = Task {
            await ChangeFollower(client: laptop.client) {
                try await laptop.syncEngine.sync()
                syncs.open()
            }.run()
        }
        defer { following.cancel() }
        await syncs.wait()

        // When the phone writes an entry and sends it
        let id = UUID()
        try phone.store.noteWritten("Wrote this on the phone.", id: id)
        #expect(try await phone.uploads.sendDue().uploaded == 1)

        // Then it arrives on the laptop by itself: nobody asked the laptop to sync
        try await pollUntil("the laptop has the phone's entry", every: .milliseconds(100)) {
            try laptop.store.entry(id) != nil
        }
        #expect(try laptop.store.entry(id)?.transcriptClean == "Wrote this on the phone.")
        // (through the feed it opened once, not by polling after failures)
        #expect(transport.count(of: "followChanges") == 1)

        // And moved to the evening before on the phone, it shows there at once and moves on the laptop too
        let written = try #require(try phone.store.entry(id)).createdAt
        let evening = EntryMoment(
            createdAt: Date(timeIntervalSince1970: (written.timeIntervalSince1970 - 86_400).rounded()), timeZone: "Europe/Berlin")
        try phone.store.editEntry(id, EntryEdit(moment: evening))
        #expect(try phone.store.entry(id)?.createdAt == evening.createdAt)
        _ = try await phone.syncEngine.sync()
        try await pollUntil("the laptop has the move", every: .milliseconds(100)) {
            try laptop.store.entry(id)?.timeZone == "Europe/Berlin"
        }
        #expect(try laptop.store.entry(id)?.createdAt == evening.createdAt)
    }

    @Test func signingOutEndsTheSessionHereAndOnTheServer() async throws {
        // Given a signed-in client
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "0"])
        let store = InMemoryCredentialStore()
        let client = LiveMyDayClient(serverURL: server.url, credentials: store)
        _ = try await client.register(email: "leaving@example.com", password: "a long diary password")
        let refreshToken = try #require(try store.load()?.refreshToken)

        // When it signs out, then nothing is kept here, and the server refuses the session's refresh token
        try await client.logout()
        #expect(try store.load() == nil)
        var refresh = URLRequest(url: server.url.appendingPathComponent("v1/auth/refresh"))
        refresh.httpMethod = "POST"
        refresh.setValue("application/json", forHTTPHeaderField: "Content-Type")
        refresh.httpBody = try JSONSerialization.data(withJSONObject: ["refresh_token": refreshToken])
        let (_, answer) = try await URLSession.shared.data(for: refresh)
        #expect((answer as? HTTPURLResponse)?.statusCode == 401)
    }

    @Test func signingOutWhileTheServerCannotBeReachedEndsTheSessionOnTheDeviceAtOnce() async throws {
        // Given a signed-in client whose server has stopped
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "0"])
        let store = InMemoryCredentialStore()
        let client = LiveMyDayClient(serverURL: server.url, credentials: store)
        _ = try await client.register(email: "away@example.com", password: "a long diary password")
        server.kill(signal: SIGTERM)
        _ = try await server.waitForExit()

        // When it signs out, then nothing of the session is kept here, whatever the server heard
        try await client.logout()
        #expect(try store.load() == nil)
        await #expect(throws: MyDayClientError.notSignedIn) { try await client.me() }
    }

    @Test func serverErrorsArriveWithTheirCodeAndMessage() async throws {
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "0"])
        let client = LiveMyDayClient(serverURL: server.url, credentials: InMemoryCredentialStore())
        await #expect(throws: MyDayClientError.notSignedIn) { try await client.me() }
        do {
            _ = try await client.login(email: "nobody@example.com", password: "a long diary password")
            Issue.record("a login of an unknown account succeeded")
        } catch let error as MyDayClientError {
            #expect(error.status == 401)
        }
    }
}

/// Counts the operations that go through it.
final class CountingTransport: ClientTransport, @unchecked Sendable {
    private let base: any ClientTransport
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private let held: (operationID: String, gate: Gate)?

    /// Counts each operation sent through `base`; requests of `operationID` wait for `gate` before they go.
    init(_ base: any ClientTransport, holding operationID: String? = nil, until gate: Gate = Gate()) {
        self.base = base
        held = operationID.map { ($0, gate) }
    }

    func count(of operationID: String) -> Int { lock.withLock { counts[operationID, default: 0] } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        lock.withLock { counts[operationID, default: 0] += 1 }
        if let held, held.operationID == operationID { await held.gate.wait() }
        return try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// The real clock, moved forward by hand; it counts how often it was read.
final class ShiftedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0
    private var readCount = 0

    func shift(by seconds: TimeInterval) { lock.withLock { offset += seconds } }

    var reads: Int { lock.withLock { readCount } }

    var now: @Sendable () -> Date {
        { [self] in
            lock.withLock {
                readCount += 1
                return Date().addingTimeInterval(offset)
            }
        }
    }
}

extension LiveClientTests {
    @Test @MainActor func theReadyExportIsDownloadedForFilesUnderTheServersName() async throws {
        // Given a signed-in device with a typed entry of today on the server
        let server = try await ServerProcess(dataDirectory: Given.folder(), environment: ["MYDAY_WORKERS": "1"])
        let core = try ClientCore.live(directory: Given.folder(), serverURL: server.url, credentials: InMemoryCredentialStore())
        _ = try await core.client.register(email: "saver@example.com", password: "a long diary password")
        try core.store.noteWritten("Saved to Files.")
        try await core.uploads.sendDue()
        let profile = ProfileViewModel(core: core, timeZone: TimeZone(identifier: "UTC")!, pollInterval: .milliseconds(50))

        // When an export of the last 30 days is ready and "Save to Files" downloads it
        #expect(await profile.downloadArchive() == nil)
        await profile.startExport()
        guard case .ready = profile.export else {
            Issue.record("the export is \(profile.export)")
            return
        }
        let folder = Given.folder()
        let file = try #require(await profile.downloadArchive(into: folder))

        // Then it is the server's zip, named as the server names it, holding the entry and the offline index
        let today = ProfileViewModel.localDay(Date(), TimeZone(identifier: "UTC")!)
        #expect(file.lastPathComponent.hasPrefix("myday-export-") && file.lastPathComponent.hasSuffix("-\(today).zip"))
        let bytes = try Data(contentsOf: file)
        #expect(bytes.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]))
        #expect(bytes.range(of: Data("index.html".utf8)) != nil && bytes.range(of: Data("SHA256SUMS".utf8)) != nil)
        // And every format: the entries as JSON and a markdown page of the entry
        #expect(bytes.range(of: Data("entries.json".utf8)) != nil && bytes.range(of: Data(".md".utf8)) != nil)
        #expect(profile.errorMessage == nil)
    }
}
