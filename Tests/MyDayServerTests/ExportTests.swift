import ChildProcesses
import Crypto
import Foundation
import HTTPTypes
import MyDayTestSupport
import Testing
import Yams

@testable import MyDayServer

/// Exports end to end: entries in, an archive built by the worker, the link mailed to the outbox,
/// the zip downloaded through it and opened with Python's zipfile.
@Suite(.serialized) struct ExportTests {
    /// What Python's zipfile sees in an archive: per file, its compression method, SHA-256 and, for text, the text.
    struct ZipFile: Decodable {
        let method: Int
        let sha256: String
        let text: String?
    }

    static func openZip(_ data: Data) async throws -> [String: ZipFile] {
        let path = TestFolder.path("myday", ext: "zip")
        try data.write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let script = """
            import hashlib, json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            out = {}
            for i in z.infolist():
                b = z.read(i)
                t = b.decode('utf-8') if i.filename.endswith(('.txt', '.md', '.json')) else None
                out[i.filename] = {'method': i.compress_type, 'sha256': hashlib.sha256(b).hexdigest(), 'text': t}
            print(json.dumps(out))
            """
        let output = try await ChildProcess.run("python3", ["-c", script, path.path])
        try #require(output.status == 0, "zipfile could not read the archive: \(output.errorText)")
        return try JSONDecoder().decode([String: ZipFile].self, from: output.standardOutput)
    }

    /// The archive unzipped into a folder of its own, by Python's zipfile.
    static func unzip(_ data: Data) async throws -> URL {
        let path = TestFolder.path("myday", ext: "zip")
        try data.write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let folder = TestFolder.make("myday-unzipped")
        let script = "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])"
        try await ChildProcess.succeed("python3", ["-c", script, path.path, folder.path])
        return folder
    }

    static func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    @discardableResult
    private func text(_ api: APIClient, _ session: APIClient.Session, at createdAt: String, tz: String, _ text: String)
        async throws -> UUID
    {
        let id = UUID()
        let reply = try await api.send(
            .post, "/v1/entries", token: session.accessToken,
            json: ["id": id.uuidString, "created_at": createdAt, "tz": tz, "kind": "text", "text": text, "duration_s": 0])
        try #require(reply.status == .created)
        return id
    }

    private func waitForExport(_ api: APIClient, _ session: APIClient.Session, _ id: String) async throws -> [String: Any] {
        var export: [String: Any] = [:]
        try await pollUntil("the export is ready") {
            export = try await api.send(.get, "/v1/exports/\(id)", token: session.accessToken).json
            return ["ready", "failed"].contains(export["status"] as? String ?? "")
        }
        return export
    }

    @Test(arguments: TestDatabase.available)
    func anExportHoldsEveryEntryOfTheRangeAndIsMailed(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) {
            $0.workers = 1
            $0.publicURL = TestServer.publicURL
        }
        try await server.run { api in
            let session = try await api.register("exporter@example.com")
            try await api.confirmAddress("exporter@example.com", session: session, on: server)
            // Given audio and text entries over three days and two time zones, around Paris's spring-forward night
            let parisAudio = UUID()
            try await api.createUploadedEntry(session, id: parisAudio)  // 2026-05-01T08:30:00Z, Europe/Paris
            let created = try await api.createAudioEntry(
                session, sizeBytes: (try await TestAudio.m4a()).count, createdAt: "2026-03-29T16:00:00Z", tz: "America/New_York")
            let newYorkAudio = try #require(UUID(uuidString: created.entry["id"] as? String ?? ""))
            let uploaded = try await api.upload(try #require(created.uploadURL), try await TestAudio.m4a())
            try #require(uploaded.status == .noContent, "\(uploaded.text)")
            try await api.send(.post, "/v1/entries/\(newYorkAudio)/complete", token: session.accessToken, expecting: .ok)
            try await api.send(
                .put, "/v1/me/vocabulary", token: session.accessToken, json: ["words": ["Siobhan", "Dún Laoghaire"]],
                expecting: .ok)
            let titled = try await text(api, session, at: "2026-03-28T09:00:00Z", tz: "Europe/Paris", "Before the clocks change.")
            try await api.send(
                .patch, "/v1/entries/\(titled)", token: session.accessToken,
                json: ["title": "Spring: forward/back?", "tags": ["clocks", "home"], "mood": 4], expecting: .ok)
            try await text(api, session, at: "2026-03-29T01:30:00Z", tz: "Europe/Paris", "Just after they went forward.")
            try await text(api, session, at: "2026-03-29T01:30:00Z", tz: "Europe/Paris", "The same second, again.")
            try await text(api, session, at: "2026-03-30T08:00:00Z", tz: "Europe/Paris", "The day after the range.")
            try await pollUntil("the audio is transcribed") {
                let page = try await api.send(.get, "/v1/entries", token: session.accessToken).json["entries"] as? [[String: Any]]
                return page?.allSatisfy { $0["status"] as? String == "transcribed" } == true
            }

            // When the 28th and 29th of March in Paris are exported with markdown and JSON
            let asked = try await api.send(
                .post, "/v1/exports", token: session.accessToken,
                json: ["from": "2026-03-28", "to": "2026-03-29", "tz": "Europe/Paris", "formats": ["markdown", "json"]])
            #expect(asked.status == .accepted && asked.json["status"] as? String == "queued")
            let export = try await waitForExport(api, session, try #require(asked.json["id"] as? String))
            #expect(
                export["status"] as? String == "ready" && export["entries"] as? Int == 4 && export["audio_files"] as? Int == 1)

            // Then the confirmed address gets one mail with the link, on the public URL, and nothing of the diary
            #expect(export["mailed_to"] as? String == "exporter@example.com")
            let mail = try await server.awaitMail(to: "exporter@example.com", subject: "Your My Day export is ready")
            #expect(server.mails(to: "exporter@example.com", subject: "Your My Day export is ready").count == 1)
            #expect(!mail.contains("clocks"))
            #expect(mail.contains("(Europe/Paris), 4 entries."), "\(mail)")
            let link = try #require(mail.firstMatch(of: /https?:\/\/\S+/).map { String($0.0) })
            #expect(link == export["download_url"] as? String)
            #expect(link.hasPrefix("\(TestServer.publicURL)/v1/blobs/exports/"))

            // And the link downloads, without a token, an archive with exactly the range's files
            let download = try await api.send(.get, link)
            #expect(download.status == .ok)
            #expect(download.headers[.contentDisposition] == #"attachment; filename="myday-export-2026-03-28-2026-03-29.zip""#)
            let files = try await Self.openZip(download.body)
            // (two entries of one second: the later one's name carries its uuid8)
            let twins = files.keys.filter { $0.hasPrefix("2026-03-29_03-30-00_") && $0.hasSuffix(".txt") }
            #expect(twins.count == 1)
            let twin = String(twins.first?.dropLast(4) ?? "")
            #expect(
                Set(files.keys) == [
                    "2026-03-28_10-00-00 Spring forward back.txt", "2026-03-28_10-00-00 Spring forward back.md",
                    "2026-03-29_03-30-00.txt", "2026-03-29_03-30-00.md",
                    "\(twin).txt", "\(twin).md", "2026-03-29_12-00-00.m4a", "2026-03-29_12-00-00.txt",
                    "2026-03-29_12-00-00.md", "days/2026-03-28.md", "days/2026-03-29.md", "entries.json", "vocabulary.json",
                    "README.txt", "index.html", "SHA256SUMS",
                ])
            // The person's vocabulary too, as the API gives it
            let vocabulary = try await api.send(.get, "/v1/me/vocabulary", token: session.accessToken).json
            let exportedWords = try JSONSerialization.jsonObject(with: Data((files["vocabulary.json"]?.text ?? "").utf8))
            #expect((exportedWords as? NSDictionary)?.isEqual(to: vocabulary) == true, "\(exportedWords)")
            #expect((vocabulary["words"] as? [[String: String]])?.contains { $0["text"] == "Siobhan" } == true)
            let audio = try #require(files["2026-03-29_12-00-00.m4a"])
            #expect(audio.sha256 == Self.sha256(try await TestAudio.m4a()) && audio.method == 0)
            // Each .txt starts with what was typed about the entry (title, date, tags, mood), then the words
            let titledText = files["2026-03-28_10-00-00 Spring forward back.txt"]
            #expect(
                titledText?.text == """
                    Title: Spring: forward/back?
                    Date: Saturday 28 March 2026, 10:00 (Europe/Paris)
                    Tags: clocks, home
                    Mood: 4 of 5

                    Before the clocks change.

                    """)
            #expect(titledText?.method == 8)
            let newYork = try await api.send(.get, "/v1/entries/\(newYorkAudio)", token: session.accessToken).json
            let length = ExportArchiveWriter.clockLength(seconds: newYork["duration_s"] as? Double ?? 0)
            #expect(
                files["2026-03-29_12-00-00.txt"]?.text
                    == "Date: Sunday 29 March 2026, 12:00 (America/New_York)\nLength: \(length)\n\n"
                    + (newYork["transcript_clean"] as? String ?? "") + "\n")

            // Markdown front matter is YAML with the date's own offset
            let markdown = try #require(files["2026-03-29_12-00-00.md"]?.text)
            let frontMatter = try #require(markdown.split(separator: "---\n").first.map(String.init))
            let yaml = try #require(try Yams.load(yaml: frontMatter) as? [String: Any])
            #expect(yaml["time_zone"] as? String == "America/New_York")
            #expect((yaml["date"] as? Date) == (try Date("2026-03-29T16:00:00Z", strategy: .iso8601)))
            #expect(markdown.contains("date: 2026-03-29T12:00:00-04:00"))
            #expect(markdown.contains("audio: \"2026-03-29_12-00-00.m4a\""), "\(markdown)")
            #expect(yaml["status"] as? String == "transcribed")

            // Each day's markdown quotes the day in its own words, each sentence naming its entry, and links its entries
            let day = try #require(files["days/2026-03-29.md"]?.text)
            let dayFrontMatter = try #require(day.split(separator: "---\n").first.map(String.init))
            let dayYAML = try #require(try Yams.load(yaml: dayFrontMatter) as? [String: Any])
            #expect(dayYAML["entries"] as? Int == 3 && dayYAML["date"] != nil, "\(day)")
            #expect(day.contains("# Sunday 29 March 2026"))
            let quoted = day.split(separator: "\n").filter { $0.hasPrefix("> ") && !$0.hasPrefix("> — ") }
                .map { $0.dropFirst(2).trimmingCharacters(in: .whitespaces) }
            let said = ["Just after they went forward.", "The same second, again.", newYork["transcript_clean"] as? String ?? ""]
            #expect(!quoted.isEmpty && quoted.allSatisfy { sentence in said.contains { $0.contains(sentence) } }, "\(day)")
            #expect(day.contains("- [2026-03-29_03-30-00](<../2026-03-29_03-30-00.md>)") && day.contains("(<../\(twin).md>)"))
            #expect(!day.contains("The day after the range"))
            #expect(files["days/2026-03-28.md"]?.text?.contains("Before the clocks change.") == true)
            #expect(files["days/2026-03-28.md"]?.text?.contains("mood: 4") == true)

            // entries.json holds every entry of the range with both transcripts
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data((files["entries.json"]?.text ?? "").utf8)) as? [[String: Any]])
            #expect(entries.count == 4)
            #expect(
                entries.contains { $0["id"] as? String == newYorkAudio.uuidString.lowercased() && $0["transcript_raw"] != nil })
            // each with every field the API gives the entry
            let exported = try #require(entries.first { $0["id"] as? String == newYorkAudio.uuidString.lowercased() })
            let served = try await api.send(
                .get, "/v1/entries/\(newYorkAudio.uuidString.lowercased())", token: session.accessToken
            ).json
            #expect(served.count > 10 && served["updated_at"] != nil && served["needs_review"] != nil)
            for (key, value) in served {
                #expect(
                    (exported[key] as? NSObject)?.isEqual(value) == true,
                    "\(key): \(String(describing: exported[key])) ≠ \(value)")
            }
            #expect(files["README.txt"]?.text?.contains("2026-03-28 to 2026-03-29") == true)

            // And unzipped, `sha256sum -c` finds every other file as SHA256SUMS lists it
            let unzipped = try await Self.unzip(download.body)
            let checked = try await ChildProcess.run(
                "sh", ["-c", "cd \"$1\" && sha256sum -c --strict SHA256SUMS", "sh", unzipped.path])
            #expect(checked.status == 0, "\(checked.text)\(checked.errorText)")
            #expect(checked.text.split(separator: "\n").count == files.count - 1, "\(checked.text)")
            // And index.html shows each entry's words and plays the recording beside it, loading nothing from elsewhere
            let page = try String(contentsOf: unzipped.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(
                page.contains("Before the clocks change.") && page.contains("<h3><time datetime=\"2026-03-28T10:00:00+01:00\">"))
            #expect(page.contains("Spring: forward/back?") && page.contains("Tags: clocks, home · Mood 4/5"))
            #expect(page.contains("<audio controls preload=\"metadata\" src=\"2026-03-29_12-00-00.m4a\">"))
            #expect(page.components(separatedBy: "<article").count - 1 == 4)
            #expect(!page.contains("http:") && !page.contains("https:") && page.contains("default-src 'none'"))

            // And a range request gets part of it
            let part = try await api.send(.get, link, headers: [.range: "bytes=0-3"])
            #expect(part.status == .partialContent && part.body == Data([0x50, 0x4b, 0x03, 0x04]))
        }
    }

    @Test(arguments: TestDatabase.available)
    func anEntryWhoseTranscribingAgainFailedKeepsItsWordsInTheExport(_ database: TestDatabase) async throws {
        let server = try await TestServer.make(database) {
            $0.workers = 1
            $0.publicURL = TestServer.publicURL
        }
        try await server.run { api in
            let session = try await api.register("again@example.com")
            try await api.confirmAddress("again@example.com", session: session, on: server)
            // Given a recording transcribed from the words its phone heard (made 2026-05-01 in Paris)
            let id = try await api.createAndUpload(session, try await TestSpeech.m4a(TestSpeech.diarySentence))
            try await api.send(
                .post, "/v1/entries/\(id)/complete", token: session.accessToken, json: DeviceTranscriptTests.transcript(),
                expecting: .ok)
            let transcribed = try await api.finishedTranscription(session, id)
            let words = try #require(transcribed["transcript_clean"] as? String)
            #expect(transcribed["status"] as? String == "transcribed" && words.contains("harbour"), "\(transcribed)")

            // When its audio can no longer be read, and it is transcribed again
            let blobs = server.storedBlobs()
            try #require(blobs.count == 1)
            try Data("no longer audio".utf8).write(to: server.configuration.blobDirectory.appendingPathComponent(blobs[0]))
            try await api.send(.post, "/v1/entries/\(id)/retranscribe", token: session.accessToken, expecting: .accepted)
            let failed = try await api.finishedTranscription(session, id)
            try #require(failed["status"] as? String == "failed", "\(failed)")
            #expect(failed["transcript_clean"] as? String == words)

            // Then an export of its day still holds its words, and its README says they are the earlier transcript's
            let asked = try await api.send(
                .post, "/v1/exports", token: session.accessToken,
                json: ["from": "2026-05-01", "to": "2026-05-01", "tz": "Europe/Paris"])
            let export = try await waitForExport(api, session, try #require(asked.json["id"] as? String))
            try #require(export["status"] as? String == "ready", "\(export)")
            #expect(export["entries"] as? Int == 1 && export["not_transcribed"] as? Int == 0, "\(export)")
            let download = try await api.send(.get, try #require(export["download_url"] as? String))
            let files = try await Self.openZip(download.body)
            let text = try #require(files.first { $0.key.hasSuffix(".txt") && $0.key != "README.txt" })
            #expect(text.value.text?.hasSuffix("\n\n" + words + "\n") == true, "\(text)")
            let readme = try #require(files["README.txt"]?.text)
            #expect(readme.contains("Transcribing these again failed") && readme.contains(String(text.key.dropLast(4))))
        }
    }

    @Test func emptyRangesBadRangesAndBadLinks() async throws {
        let server = try await TestServer.make(.sqlite) { $0.workers = 1 }
        try await server.run { api in
            let session = try await api.register()
            // An empty range is a valid archive with a README only
            let asked = try await api.send(
                .post, "/v1/exports", token: session.accessToken, json: ["from": "2020-01-01", "to": "2020-01-31", "tz": "UTC"])
            let export = try await waitForExport(api, session, try #require(asked.json["id"] as? String))
            let link = try #require(export["download_url"] as? String)
            let files = try await Self.openZip(try await api.send(.get, link).body)
            #expect(files.keys.sorted() == ["README.txt", "SHA256SUMS", "index.html"])
            #expect(files["README.txt"]?.text?.contains("Entries: 0") == true)

            // Ranges that are backwards or not dates are refused and make no export
            for (from, to) in [("2026-05-02", "2026-05-01"), ("2026-02-30", "2026-03-01")] {
                let reply = try await api.send(
                    .post, "/v1/exports", token: session.accessToken, json: ["from": from, "to": to, "tz": "UTC"])
                #expect(reply.status == .unprocessableContent, "\(from)…\(to)")
            }
            let list = try await api.send(.get, "/v1/exports", token: session.accessToken).json["exports"] as? [Any]
            #expect(list?.count == 1)

            // A tampered link and an expired one are refused
            let tampered = link.replacingOccurrences(of: "signature=", with: "signature=A")
            #expect(try await api.send(.get, tampered).status == .forbidden)
            let path = try #require(URLComponents(string: link)?.path)
            let secret = try SigningSecret.load(configured: server.configuration.secret, file: server.configuration.secretFile)
            let expired = URLSigner(secret: secret).query(
                method: "GET", blobKey: String(path.dropFirst("/v1/blobs/".count)), expires: Date().addingTimeInterval(-60))
            #expect(try await api.send(.get, "\(path)?\(expired)").status == .forbidden)

            // Once the link has expired, the cleanup deletes the archive and the export says so
            let exportID = try #require(export["id"] as? String)
            let cleanup = try await server.withHousekeeping { housekeeping in
                try await housekeeping.deleteExpiredArchives(
                    now: Date().addingTimeInterval(server.configuration.exportLinkLifetime.seconds + 60))
            }
            #expect(cleanup == 1)
            #expect(!server.storedBlobs().contains { $0.hasPrefix("exports/") })
            let after = try await api.send(.get, "/v1/exports/\(exportID)", token: session.accessToken).json
            #expect(after["status"] as? String == "expired" && after["download_url"] == nil)
            #expect(try await api.send(.get, link).status == .notFound)
        }
    }
}
