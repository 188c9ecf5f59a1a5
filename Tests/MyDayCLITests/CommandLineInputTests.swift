import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// `myday` given bad input: each is refused with a sentence that names what is wrong, and nothing is queued.
@Suite struct CommandLineInputTests {
    /// A server address nobody listens on: every refusal here comes before the network.
    static let nowhere = URL(string: "http://127.0.0.1:9")!

    @Test func badInputIsRefusedWithAClearMessageAndQueuesNothing() async throws {
        // Given a client with a readable recording and a text file beside it
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: Self.nowhere)
        let folder = TestFolder.make("myday-cli-files")
        let recording = folder.appendingPathComponent("day.wav")
        try Data(WAVHeader.bytes(pcmByteCount: 3200, sampleRate: 16_000) + [UInt8](repeating: 0, count: 3200))
            .write(to: recording)
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("not audio".utf8).write(to: notes)
        let cases: [(arguments: [String], says: String)] = [
            (["add", folder.appendingPathComponent("missing.m4a").path], "Cannot read"),
            (["add", notes.path], "notes.txt"),
            (["add", recording.path, "--at", "yesterday"], "is not an ISO 8601 date-time"),
            (["add", recording.path, "--tz", "Mars/Olympus_Mons"], "Mars/Olympus_Mons is not a time zone"),
            (["note", "   "], "The text is empty."),
            (["list", "--since", "2026-1-1"], "--since takes YYYY-MM-DD."),
            (["list", "--since", "2026-13-45"], "--since takes YYYY-MM-DD."),
            (["search", "--mood", "9", "walk"], "--mood takes 1 to 5."),
            (["search", "--limit", "0", "walk"], "--limit takes 1 to 1000."),
            (["search", "--from", "someday", "walk"], "--from takes a date such as 2026-05-01."),
            (["search"], "Say what to look for, or give a filter."),
            (["delete-export", "not-an-id"], "'not-an-id' is not an export id."),
            (["sign-ins", "remove", "fax"], "'fax' is not a way to sign in"),
            (["list", "--server", "ftp://example.com"], "ftp://example.com is not an http(s) URL."),
            (["frobnicate"], "Unexpected argument 'frobnicate'"),
        ]
        for (arguments, says) in cases {
            // When `myday` is run with it
            let output = try await client.run(arguments)

            // Then it fails, saying what is wrong on standard error
            #expect(output.status != 0, "\(arguments) succeeded: \(output.text)")
            #expect(output.errorText.contains(says), "\(arguments): \(output.errorText)")
        }
        // And nothing waits to be uploaded, and no entry was made
        let store = try LocalStore(path: client.home.appendingPathComponent("myday.sqlite").path)
        #expect(try store.entries().isEmpty && store.pendingUploads().isEmpty)
    }
}
