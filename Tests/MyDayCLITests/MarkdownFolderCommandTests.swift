import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// `myday sync --markdown DIR`, against the real server (in the serial suite: it starts one).
extension CommandLineEndToEndTests {
    @Test func aMarkdownFolderFollowsTheDiaryAndLeavesThePersonsFilesAlone() async throws {
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"), environment: ["MYDAY_WORKERS": "0"])
        defer { server.kill(signal: SIGTERM) }
        let phone = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await phone.run(["register", "--email", "vault@example.com"]).status == 0)
        // Given a recording and a note made on one device, and a vault on another with a note of its own
        let audio = try await TestAudio.m4a()
        let file = TestFolder.make("myday-cli").appendingPathComponent("walk.m4a")
        try audio.write(to: file)
        #expect(try await phone.run(["add", file.path, "--at", "2026-03-29T08:15:00Z", "--tz", "Europe/Paris"]).status == 0)
        #expect(try await phone.run(["note", "Bought bread."]).status == 0)
        let laptop = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await laptop.run(["login", "--email", "vault@example.com"]).status == 0)
        let vault = TestFolder.make("vault")
        try Data("# My own page".utf8).write(to: vault.appendingPathComponent("Ideas.md"))

        // When the laptop syncs into the vault
        let synced = try await laptop.run(["sync", "--markdown", vault.path])

        // Then each entry has its markdown, the recording (fetched from the server) lies beside its own, byte for byte
        #expect(
            synced.text.contains("2 written, 1 recordings added, 0 removed, 0 unchanged."), "\(synced.text)\(synced.errorText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: vault.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names.count == 4 && names.contains("Ideas.md") && names.contains("2026-03-29_10-15-00.m4a"), "\(names)")
        #expect(try Data(contentsOf: vault.appendingPathComponent("2026-03-29_10-15-00.m4a")) == audio)
        let markdown = try String(contentsOf: vault.appendingPathComponent("2026-03-29_10-15-00.md"), encoding: .utf8)
        #expect(markdown.contains("audio: \"2026-03-29_10-15-00.m4a\"") && markdown.contains("date: 2026-03-29T10:15:00+02:00"))

        // When it syncs again, nothing changes; when the recording is deleted on the phone, its files go and the
        // person's page stays
        let again = try await laptop.run(["sync", "--markdown", vault.path])
        #expect(again.text.contains("0 written, 0 recordings added, 0 removed, 2 unchanged."), "\(again.text)")
        let recording = try #require(
            try LocalStore(path: phone.home.appendingPathComponent("myday.sqlite").path).entries().first { $0.kind == .audio })
        #expect(try await phone.run(["delete", recording.id.uuidString]).status == 0)
        let afterDeletion = try await laptop.run(["sync", "--markdown", vault.path])
        #expect(afterDeletion.text.contains("0 written, 0 recordings added, 1 removed, 1 unchanged."), "\(afterDeletion.text)")
        let left = try FileManager.default.contentsOfDirectory(atPath: vault.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(left.count == 2 && left.contains("Ideas.md") && !left.contains("2026-03-29_10-15-00.m4a"), "\(left)")
    }
}
