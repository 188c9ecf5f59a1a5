import ChildProcesses
import Foundation

/// A Day One JSON export as its documentation describes it, made for a test: `Journal.json` with the entries, and each
/// recording in `audios/` named by its MD5, zipped by Python's zipfile.
package enum DayOneExport {
    /// One entry; `audios` are its recordings, each named by its MD5 (one without bytes is left out of the zip).
    package struct Entry {
        package var uuid: String
        package var creationDate: String
        package var timeZone: String
        package var text: String
        package var tags: [String] = []
        package var starred = false
        package var audios: [(md5: String, bytes: Data?)] = []
        /// How many photos, videos and PDFs Day One lists for it (only their descriptions: no file is in the zip).
        package var photos = 0
        package var videos = 0
        package var pdfs = 0

        package init(
            uuid: String, creationDate: String, timeZone: String, text: String, tags: [String] = [], starred: Bool = false,
            audios: [(md5: String, bytes: Data?)] = [], photos: Int = 0, videos: Int = 0, pdfs: Int = 0
        ) {
            self.photos = photos
            self.videos = videos
            self.pdfs = pdfs
            self.uuid = uuid
            self.creationDate = creationDate
            self.timeZone = timeZone
            self.text = text
            self.tags = tags
            self.starred = starred
            self.audios = audios
        }
    }

    /// The zip of `entries`, in a test folder; `journal` names the JSON file.
    package static func zip(_ entries: [Entry], journal: String = "Journal") async throws -> URL {
        let folder = TestFolder.make("dayone")
        let audios = folder.appendingPathComponent("audios", isDirectory: true)
        try FileManager.default.createDirectory(at: audios, withIntermediateDirectories: true)
        var objects: [[String: Any]] = []
        for entry in entries {
            var object: [String: Any] = [
                "uuid": entry.uuid, "creationDate": entry.creationDate, "timeZone": entry.timeZone, "text": entry.text,
                "starred": entry.starred, "duration": 0,
            ]
            if !entry.tags.isEmpty { object["tags"] = entry.tags }
            if !entry.audios.isEmpty {
                object["audios"] = entry.audios.map { audio in
                    ["identifier": UUID().uuidString, "md5": audio.md5, "format": "m4a", "duration": 1.0] as [String: Any]
                }
            }
            for (key, count, type) in [
                ("photos", entry.photos, "jpeg"), ("videos", entry.videos, "mov"), ("pdfAttachments", entry.pdfs, "pdf"),
            ] where count > 0 {
                object[key] = (0..<count).map { _ in
                    ["identifier": UUID().uuidString, "md5": UUID().uuidString.lowercased(), "type": type] as [String: Any]
                }
            }
            for audio in entry.audios { try audio.bytes?.write(to: audios.appendingPathComponent("\(audio.md5).m4a")) }
            objects.append(object)
        }
        let json: [String: Any] = ["metadata": ["version": "1.0"], "entries": objects]
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted]).write(
            to: folder.appendingPathComponent("\(journal).json"))
        let zip = TestFolder.path("dayone-export", ext: "zip")
        let script = """
            import os, sys, zipfile
            root, out = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
                for base, _, names in os.walk(root):
                    for name in names:
                        path = os.path.join(base, name)
                        z.write(path, os.path.relpath(path, root))
            """
        try await ChildProcess.succeed("python3", ["-c", script, folder.path, zip.path])
        return zip
    }
}
