import Foundation
import MyDayModels
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// `myday import`, against the real server (in the serial suite: it starts one).
extension CommandLineEndToEndTests {
    private func date(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    /// A second of a tone written by the real ffmpeg at `file`, with `arguments` before the output, modified at `mtime`.
    private func audio(_ file: URL, _ arguments: [String] = [], mtime: Date) async throws {
        try await TestMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1"] + arguments + [file.path])
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: file.path)
    }

    @Test func aFolderIsImportedAtTheTimesItsFilesWereRecordedOnceEvenWhenRunAgain() async throws {
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"), environment: ["MYDAY_WORKERS": "0"])
        defer { server.kill(signal: SIGTERM) }
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await client.run(["register", "--email", "importer@example.com"]).status == 0)

        // Given a folder: a recording whose time is only in its container, one only in its name, one only in its
        // modification time, one in a folder inside, a damaged one, and a text file
        let folder = TestFolder.make("myday-import")
        let inside = folder.appendingPathComponent("old phone", isDirectory: true)
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        let somewhenElse = date("2020-01-01T12:00:00Z")
        try await audio(
            folder.appendingPathComponent("Walk.m4a"), ["-metadata", "creation_time=2026-03-12T10:30:00Z"], mtime: somewhenElse)
        try await audio(folder.appendingPathComponent("20260314 073000.mp3"), mtime: somewhenElse)
        try await audio(folder.appendingPathComponent("Notes.wav"), mtime: date("2026-03-15T20:00:00Z"))
        try await audio(inside.appendingPathComponent("2026-03-10_21-05-00.ogg"), mtime: somewhenElse)
        let damaged = folder.appendingPathComponent("Damaged.m4a")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: damaged)
        try Data("a shopping list".utf8).write(to: folder.appendingPathComponent("list.txt"))

        // When it is imported while the server cannot be reached, then every file waits on this device
        let offline = try await client.run(["import", "--tz", "Pacific/Auckland", "--server", "http://127.0.0.1:9", folder.path])
        #expect(offline.text.contains("5 wait on this device"), "\(offline.text)\n\(offline.errorText)")
        #expect(offline.errorText.contains("Found 5 audio files"))

        // And when the same import runs again with the server back
        let imported = try await client.run(["import", "--tz", "Pacific/Auckland", folder.path])

        // Then the four recordings are imported, nothing is copied twice, and the damaged file is named with the reason
        #expect(imported.errorText.contains("already waiting to be sent"))
        #expect(imported.text.contains("Imported 4 entries; 0 already in the diary."), "\(imported.text)\n\(imported.errorText)")
        #expect(imported.status != 0)
        #expect(imported.text.contains("\(damaged.path): The upload is not readable"), "\(imported.text)")

        // And each entry is on the day and at the time its file gives, in Auckland
        #expect(try await client.run(["sync"]).status == 0)
        let store = try LocalStore(path: client.home.appendingPathComponent("myday.sqlite").path)
        let times = try store.entries().map { String($0.filename.prefix(19)) }.sorted()
        #expect(
            times == ["2026-03-10_21-05-00", "2026-03-12_23-30-00", "2026-03-14_07-30-00", "2026-03-16_09-00-00"], "\(times)")
        #expect(try store.pendingUploads().isEmpty)

        // When the folder is imported once more, here (which knows its files) and on another computer (where the server
        // recognises them), then nothing new is made
        let again = try await client.run(["import", "--tz", "Pacific/Auckland", folder.path])
        #expect(again.text.contains("Imported 0 entries; 4 already in the diary."), "\(again.text)\n\(again.errorText)")
        let elsewhere = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await elsewhere.run(["login", "--email", "importer@example.com"]).status == 0)
        let fromElsewhere = try await elsewhere.run(["import", "--tz", "Pacific/Auckland", folder.path])
        #expect(fromElsewhere.text.contains("Imported 0 entries; 4 already in the diary."), "\(fromElsewhere.text)")
        #expect(try await client.run(["sync"]).status == 0)
        #expect(try store.entries().count == 4)
        let elsewhereStore = try LocalStore(path: elsewhere.home.appendingPathComponent("myday.sqlite").path)
        #expect(try elsewhereStore.entries().count == 4 && elsewhereStore.pendingUploads().isEmpty)
    }
}

extension CommandLineEndToEndTests {
    @Test func aDayOneJournalComesInWithItsDatesTagsAndRecordingsOnce() async throws {
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"), environment: ["MYDAY_WORKERS": "0"])
        defer { server.kill(signal: SIGTERM) }
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await client.run(["register", "--email", "journal@example.com"]).status == 0)

        // Given a Day One export: a starred entry with tags and escaped markdown, one with a recording and a link to it,
        // and one whose recording is missing from the zip
        let recording = try await TestAudio.m4a()
        let zip = try await DayOneExport.zip([
            DayOneExport.Entry(
                uuid: "A1B2C3D4E5F60718293A4B5C6D7E8F90", creationDate: "2019-05-04T21:10:00Z", timeZone: "Europe/Dublin",
                text: "# A long day\n\nWalked to Howth\\. Fish and chips\\! \\(Cold\\.\\)", tags: ["walks", "sea"], starred: true),
            DayOneExport.Entry(
                uuid: "B1B2C3D4E5F60718293A4B5C6D7E8F90", creationDate: "2019-05-06T07:30:00Z", timeZone: "Asia/Tokyo",
                text: "Morning thoughts\n\n![](dayone-moment:/audio/0F1E2D3C)",
                audios: [(md5: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", bytes: recording)]),
            DayOneExport.Entry(
                uuid: "C1B2C3D4E5F60718293A4B5C6D7E8F90", creationDate: "2019-05-07T07:30:00Z", timeZone: "Europe/Dublin",
                text: "", audios: [(md5: "ffffffffffffffffffffffffffffffff", bytes: nil)]),
        ])

        // When it is imported
        let imported = try await client.run(["import", zip.path])

        // Then its words, its recording, their moments, zones and tags are in the diary, and the missing recording is
        // named
        #expect(imported.text.contains("Imported 3 entries; 0 already in the diary."), "\(imported.text)")
        #expect(imported.status != 0 && imported.text.contains("The recording ffffffffffffffffffffffffffffffff of entry C1B2"))
        let other = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await other.run(["login", "--email", "journal@example.com"]).status == 0)
        #expect(try await other.run(["sync"]).status == 0)
        let otherStore = try LocalStore(path: other.home.appendingPathComponent("myday.sqlite").path)
        let entries = try otherStore.entries()
        #expect(entries.count == 3)
        let longDay = try #require(entries.first { $0.timeZone == "Europe/Dublin" })
        #expect(longDay.kind == .text && longDay.filename.hasPrefix("2019-05-04_22-10-00"))
        #expect(longDay.transcriptClean == "# A long day\n\nWalked to Howth. Fish and chips! (Cold.)")
        #expect(Set(longDay.tags) == ["walks", "sea", "starred"])
        let morning = entries.filter { $0.timeZone == "Asia/Tokyo" }
        #expect(Set(morning.map(\.kind)) == [.audio, .text])
        #expect(morning.allSatisfy { $0.filename.hasPrefix("2019-05-06_16-30-00") })
        #expect(morning.first { $0.kind == .text }?.transcriptClean == "Morning thoughts")

        // When the same export is imported again, and its recording as a file elsewhere, then nothing new is made
        let again = try await client.run(["import", zip.path])
        #expect(again.text.contains("Imported 0 entries; 3 already in the diary."), "\(again.text)\n\(again.errorText)")
        let file = TestFolder.make("myday-cli").appendingPathComponent("memo.m4a")
        try recording.write(to: file)
        let asFile = try await other.run(["import", file.path])
        #expect(asFile.text.contains("Imported 0 entries; 1 already in the diary."), "\(asFile.text)\n\(asFile.errorText)")
        #expect(try await other.run(["sync"]).status == 0)
        #expect(try otherStore.entries().count == 3)
    }
}
