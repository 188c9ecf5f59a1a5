import Foundation
import MyDayModels
import MyDaySearch
import MyDayTestSupport
import Testing

@testable import MyDayKit

/// The `myday` CLI against the real `myday-server`, both as child processes on loopback.
@Suite(.serialized) struct CommandLineEndToEndTests {
    let spoken = [
        TestSpeech.diarySentence,
        "in the evening i read a book about the sea and then i went to bed early",
        "this morning the weather was cold so we stayed at home and made soup",
    ]

    @Test func recordingsAddedWhileTheServerIsDownUploadOnceItIsBackAndReachAnotherDevice() async throws {
        let data = TestFolder.make("myday-cli")
        var server = try await ServerProcess(dataDirectory: data, environment: ["MYDAY_WORKERS": "1"])
        var first = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        // Given an account made with the CLI
        #expect(try await first.run(["register", "--email", "walker@example.com"]).status == 0)

        // When the server is down and three recordings are added
        server.kill(signal: SIGTERM)
        _ = try await server.waitForExit()
        for (index, text) in spoken.enumerated() {
            let file = TestFolder.make("myday-cli").appendingPathComponent("day\(index).m4a")
            try await TestSpeech.m4a(text, silenceAfter: 1).write(to: file)
            let added = try await first.run(["add", file.path])
            #expect(added.status == 0, "\(added.errorText)")
        }
        // Then all three wait on this device
        let firstStore = try LocalStore(path: first.home.appendingPathComponent("myday.sqlite").path)
        #expect(try firstStore.pendingUploads().count == 3)
        #expect(try await first.run(["status"]).text.contains("waiting: 3"))

        // When the server is back and the CLI syncs
        server = try await ServerProcess(dataDirectory: data, environment: ["MYDAY_WORKERS": "1"])
        first.server = server.url
        let synced = try await first.run(["sync"])
        #expect(synced.status == 0, "\(synced.errorText)")
        #expect(try firstStore.pendingUploads().isEmpty)

        // Then, after the pipeline, each is transcribed with words that were spoken
        try await pollUntil("the three recordings are transcribed", deadline: .seconds(180), every: .milliseconds(500)) {
            try await first.run(["sync"])
            return try firstStore.entries().allSatisfy { $0.state == .transcribed }
        }
        let entries = try firstStore.entries()
        #expect(entries.count == 3)
        for entry in entries {
            let heard = Set((entry.transcriptRaw ?? "").split(separator: " ").map(String.init))
            let best = spoken.map { Set($0.split(separator: " ").map(String.init)).intersection(heard).count }.max() ?? 0
            #expect(best >= 5, "heard: \(entry.transcriptRaw ?? "")")
        }

        // When a second device signs in and syncs, then it sees the same entries
        let second = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await second.run(["login", "--email", "walker@example.com"]).status == 0)
        #expect(try await second.run(["sync"]).status == 0)
        let secondStore = try LocalStore(path: second.home.appendingPathComponent("myday.sqlite").path)
        #expect(Set(try secondStore.entries().map(\.id)) == Set(entries.map(\.id)))

        // When the second device deletes one, then the first device's next sync removes it and its audio
        let doomed = try #require(entries.first)
        #expect(try await second.run(["delete", String(doomed.id.uuidString.prefix(8))]).status == 0)
        #expect(try await first.run(["sync"]).status == 0)
        #expect(try firstStore.entry(doomed.id) == nil)
        let library = try RecordingLibrary(root: first.home.appendingPathComponent("library"))
        #expect(!FileManager.default.fileExists(atPath: library.url(of: try #require(doomed.audioPath)).path))
        #expect(try firstStore.entries().count == 2)

        // When the first device lists Recently deleted and brings it back, then it is there again, with its words
        let short = String(doomed.id.uuidString.prefix(8)).lowercased()
        #expect(try await first.run(["deleted"]).text.contains(short))
        let restored = try await first.run(["deleted", "--restore", short])
        #expect(restored.status == 0 && restored.text.contains("Brought back"), "\(restored.errorText)")
        #expect(try firstStore.entry(doomed.id)?.transcriptRaw == doomed.transcriptRaw)
        // And deleted again, then for good, it is in no list
        #expect(try await second.run(["sync"]).status == 0)
        #expect(try await second.run(["delete", short]).status == 0)
        #expect(try await second.run(["deleted", "--erase", short]).status == 0)
        #expect(try await second.run(["deleted"]).text.contains("Nothing was deleted"))
    }

    @Test func aServerWithABucketTakesTheRecordingThereAndTranscribesIt() async throws {
        // Given a server whose blobs live in a bucket (it then serves no upload route of its own)
        let bucket = try await LoopbackBucket.shared()
        let server = try await ServerProcess(
            dataDirectory: TestFolder.make("myday-cli"),
            environment: bucket.environment(prefix: LoopbackBucket.freshPrefix()).merging(["MYDAY_WORKERS": "1"]) { $1 })
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await client.run(["register", "--email", "bucket@example.com"]).status == 0)

        // When a recording is added with the CLI
        let file = TestFolder.make("myday-cli").appendingPathComponent("day.m4a")
        try await TestSpeech.m4a(spoken[0], silenceAfter: 1).write(to: file)
        let added = try await client.run(["add", file.path])

        // Then it went to the bucket's presigned URL, was completed, and is transcribed from there
        #expect(added.status == 0, "\(added.errorText)")
        let store = try LocalStore(path: client.home.appendingPathComponent("myday.sqlite").path)
        #expect(try store.pendingUploads().isEmpty)
        try await pollUntil("the recording is transcribed", deadline: .seconds(180), every: .milliseconds(500)) {
            try await client.run(["sync"])
            return try store.entries().allSatisfy { $0.state == .transcribed }
        }
        #expect(!(try store.entries().first?.transcriptRaw ?? "").isEmpty)
    }

    @Test func theWaysToSignInAreListedAndTheLastIsKept() async throws {
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"))
        defer { server.kill(signal: SIGTERM) }
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        // Given an account that signs in with its password only
        #expect(try await client.run(["register", "--email", "ways@example.com"]).status == 0)
        // Then the list names it, and removing it is refused with the reason
        let ways = try await client.run(["sign-ins"])
        #expect(ways.status == 0 && ways.text == "password\tEmail and password (ways@example.com)\n", "\(ways.text)")
        let removal = try await client.run(["sign-ins", "remove", "password"])
        #expect(removal.status != 0 && removal.errorText.contains("only way to sign in"), "\(removal.errorText)")
        let unknown = try await client.run(["sign-ins", "remove", "myspace"])
        #expect(unknown.status != 0 && unknown.errorText.contains("password, apple or google"))
    }

    @Test func wordsAreListedAddedAndRemoved() async throws {
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"))
        defer { server.kill(signal: SIGTERM) }
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await client.run(["register", "--email", "words@example.com"]).status == 0)
        // Given no words yet, the list says how to add some
        let empty = try await client.run(["words"])
        #expect(empty.status == 0 && empty.text.isEmpty && empty.errorText.contains("myday words add"))
        // When names are added, one with a space and one twice
        let added = try await client.run(["words", "add", "Siobhan", "Dún Laoghaire", "siobhan"])
        #expect(added.status == 0 && added.text == "Siobhan        you\nDún Laoghaire  you\n", "\(added.text)")
        // Then one is removed, and a word that is not there is refused, changing nothing
        let unknown = try await client.run(["words", "remove", "Przemek"])
        #expect(unknown.status != 0 && unknown.errorText.contains("Not in your words: Przemek"))
        let removed = try await client.run(["words", "remove", "SIOBHAN"])
        #expect(removed.status == 0 && removed.text == "Dún Laoghaire  you\n", "\(removed.text)")
        // And a word the server refuses is explained
        let long = try await client.run(["words", "add", String(repeating: "x", count: 51)])
        #expect(long.status != 0 && long.errorText.contains("1 to 50 characters"), "\(long.errorText)")
        #expect(try await client.run(["words", "list"]).text == "Dún Laoghaire  you\n")
    }

    @Test func aDayIsShownInItsOwnWords() async throws {
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"))
        defer { server.kill(signal: SIGTERM) }
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await client.run(["register", "--email", "days@example.com"]).status == 0)
        // Given two notes today
        #expect(try await client.run(["note", "Repaired the fence with Siobhan after lunch."]).status == 0)
        #expect(try await client.run(["note", "Evening swim at the harbour, cold but lovely."]).status == 0)
        // Then today's page names both entries and quotes their own sentences, typed ones with no time
        let today = try await client.run(["day", "today", "--tz", "UTC"])
        #expect(today.status == 0, "\(today.errorText)")
        #expect(today.text.contains("2 entries"), "\(today.text)")
        #expect(today.text.contains("“Repaired the fence with Siobhan after lunch.”"), "\(today.text)")
        #expect(!today.text.contains(" at 0:"))
        // An empty day says so, and a day that is not one is refused with the way to write it
        let empty = try await client.run(["day", "2020-01-01"])
        #expect(empty.status == 0 && empty.errorText.contains("No entries on 2020-01-01"))
        let bad = try await client.run(["day", "2026-13-45"])
        #expect(bad.status != 0 && bad.errorText.contains("YYYY-MM-DD"), "\(bad.errorText)")

        // And a week from now, today comes back as "A week ago"
        let weekLater = LocalDay(Date(), in: .gmt).adding(days: 7).description
        let back = try await client.run(["on-this-day", weekLater, "--tz", "UTC"])
        #expect(back.status == 0 && back.text.contains("A week ago") && back.text.contains("Repaired the fence"), "\(back.text)")
        let nothing = try await client.run(["on-this-day", "--tz", "UTC"])
        #expect(nothing.status == 0 && nothing.errorText.contains("Nothing on this day"), "\(nothing.errorText)")
        // And the insights count today's two entries and name Siobhan
        let insights = try await client.run(["insights", "--tz", "UTC", "--days"])
        #expect(insights.status == 0 && insights.text.contains("2 entries on 1 day ·"), "\(insights.text)")
        #expect(insights.text.contains("People: Siobhan (1)"), "\(insights.text)")
        // And with nothing ahead in yesterday's words, there is no question
        let question = try await client.run(["question", "--tz", "UTC"])
        #expect(question.status == 0 && question.errorText.contains("Nothing to ask today"), "\(question.errorText)")
    }

    @Test func aReminderIsSetShownAndTurnedOff() async throws {
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"))
        defer { server.kill(signal: SIGTERM) }
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await client.run(["register", "--email", "reminded@example.com"]).status == 0)
        #expect(try await client.run(["reminder"]).text.contains("No reminder is set"))
        // Bad times and days are refused before anything is sent
        let late = try await client.run(["reminder", "set", "25:00"])
        #expect(late.status != 0 && late.errorText.contains("HH:MM"), "\(late.errorText)")
        let someday = try await client.run(["reminder", "set", "21:00", "--days", "mon,someday"])
        #expect(someday.status != 0 && someday.errorText.contains("someday"), "\(someday.errorText)")
        // A reminder on two days by mail is kept as set
        let set = try await client.run(["reminder", "set", "21:30", "--days", "fri,mon", "--email", "--tz", "Europe/Berlin"])
        #expect(set.status == 0 && set.text == "Reminder: 21:30 Europe/Berlin, mon, fri, by mail too\n", "\(set.text)")
        #expect(try await client.run(["reminder", "show"]).text == "21:30 Europe/Berlin, mon, fri, by mail too\n")
        #expect(try await client.run(["reminder", "off"]).status == 0)
        #expect(try await client.run(["reminder"]).text.contains("No reminder is set"))
        // No browser is notified yet; a browser's id must be one
        #expect(try await client.run(["reminder", "browsers"]).text.contains("No browser is notified"))
        let notAnID = try await client.run(["reminder", "browsers", "--stop", "chrome"])
        #expect(notAnID.status != 0 && notAnID.errorText.contains("not a browser's id"), "\(notAnID.errorText)")
        let unknown = try await client.run(["reminder", "browsers", "--stop", UUID().uuidString])
        #expect(unknown.status != 0, "\(unknown.text)")
    }

    @Test func searchFindsMarksFiltersAndFallsBackToTheDevice() async throws {
        let data = TestFolder.make("myday-cli")
        let server = try await ServerProcess(dataDirectory: data)
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        // Given notes typed with the CLI and synced
        #expect(try await client.run(["register", "--email", "seeker@example.com"]).status == 0)
        for text in ["Coffee at the Café Central with Alex.", "A walk by the lake, then home.", "Market day: bread and cheese."] {
            #expect(try await client.run(["note", text]).status == 0)
        }
        #expect(try await client.run(["sync"]).status == 0)

        // When searching, then the server's hits come with their matches marked, accents aside
        let cafe = try await client.run(["search", "cafe", "alex"])
        #expect(cafe.status == 0, "\(cafe.errorText)")
        #expect(cafe.text.contains("*Café*") && cafe.text.contains("*Alex*") && !cafe.text.contains("lake"), "\(cafe.text)")
        let prefix = try await client.run(["search", "mark"])
        #expect(prefix.text.contains("*Market*"), "\(prefix.text)")
        #expect(try await client.run(["search", "zebra"]).text.contains("No matches."))
        // And a date phrase reads as days: everything here was written today
        let today = try await client.run(["search", "walk", "today"])
        #expect(today.text.contains("*walk*") && today.errorText.contains("Reading “today”"), "\(today.text)\(today.errorText)")
        #expect(try await client.run(["search", "walk", "in", "1999"]).text.contains("No matches."))
        #expect(try await client.run(["search", "--from", "not-a-day", "walk"]).status != 0)

        // When the server is down, then the device's copy is searched by the same rules
        server.kill(signal: SIGTERM)
        _ = try await server.waitForExit()
        let offline = try await client.run(["search", "LAKE"])
        #expect(offline.status == 0 && offline.text.contains("*lake*"), "\(offline.text)\(offline.errorText)")
        #expect(offline.errorText.contains("searching the entries on this device"))
    }

    @Test func aClientKilledMidUploadLeavesExactlyOneEntryAfterTheRerun() async throws {
        // Given a server without workers (the audio stays uploaded), reached through a proxy that holds every upload
        // after its first 256 KiB, and a recording of 2 MB
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"), environment: ["MYDAY_WORKERS": "0"])
        let proxy = try await HoldingProxy(target: server.url, holdAfter: 256 * 1024)
        let client = CommandLineClient(home: TestFolder.make("myday-cli"), server: proxy.url)
        #expect(try await client.run(["register", "--email", "long@example.com"]).status == 0)
        let file = TestFolder.make("myday-cli").appendingPathComponent("long.wav")
        try await TestMedia.ffmpeg(["-f", "lavfi", "-i", "anoisesrc=d=60:a=0.1", "-ar", "16000", "-ac", "1", file.path])

        // When the client is killed while the server is receiving the audio
        let adding = try client.start(["add", file.path])
        try await pollUntil("the server is receiving the upload", deadline: .seconds(60)) { server.isWritingAnUpload() }
        adding.signal(SIGKILL)
        _ = try await adding.waitUntil { $0.exitStatus }
        let store = try LocalStore(path: client.home.appendingPathComponent("myday.sqlite").path)
        #expect(try store.pendingUploads().count == 1)

        // And run again, with uploads let through
        proxy.release()
        let rerun = try await client.run(["sync"])
        #expect(rerun.status == 0, "\(rerun.errorText)")

        // Then the server has exactly one entry, uploaded, and nothing waits here
        let other = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await other.run(["login", "--email", "long@example.com"]).status == 0)
        #expect(try await other.run(["sync"]).status == 0)
        let seen = try LocalStore(path: other.home.appendingPathComponent("myday.sqlite").path).entries()
        #expect(seen.count == 1)
        #expect(seen.first?.state == .uploaded)
        #expect(seen.first?.id == (try store.entries().first?.id))
        #expect(try store.pendingUploads().isEmpty)
    }

    @Test func syncWatchFetchesAChangeMadeOnAnotherDeviceAsItHappens() async throws {
        // Given a CLI that syncs and then watches
        let server = try await ServerProcess(dataDirectory: TestFolder.make("myday-cli"), environment: ["MYDAY_WORKERS": "0"])
        let watcher = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await watcher.run(["register", "--email", "watch@example.com"]).status == 0)
        let watching = try watcher.start(["sync", "--watch"])
        defer { watching.signal(SIGTERM) }
        _ = try await watching.waitUntil { String(decoding: $0.standardOutput, as: UTF8.self).contains("Watching") ? true : nil }

        // When another device writes an entry
        let other = CommandLineClient(home: TestFolder.make("myday-cli"), server: server.url)
        #expect(try await other.run(["login", "--email", "watch@example.com"]).status == 0)
        #expect(try await other.run(["note", "Written on the other device."]).status == 0)
        #expect(try await other.run(["sync"]).status == 0)
        let written = try #require(try LocalStore(path: other.home.appendingPathComponent("myday.sqlite").path).entries().first)

        // Then the watching CLI prints it without being asked again, and has it in its copy of the diary
        let short = String(written.id.uuidString.lowercased().prefix(8))
        let line = try await watching.waitUntil { snapshot in
            String(decoding: snapshot.standardOutput, as: UTF8.self).split(separator: "\n").first { $0.contains(short) }
        }
        #expect(line.contains("Written on the other device."))
        #expect(try LocalStore(path: watcher.home.appendingPathComponent("myday.sqlite").path).entry(written.id) != nil)
    }
}
