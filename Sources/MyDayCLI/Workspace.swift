import ArgumentParser
import Foundation
import MyDayKit

/// The CLI's state folder (`~/.myday`, or `MYDAY_HOME`) and the client core built on it.
struct Workspace {
    let directory: URL
    let serverURL: URL
    let core: ClientCore
    /// Held for the command's life: one `myday` at a time works on a state folder.
    private let lock: FileHandle

    /// The settings kept between runs.
    private struct Settings: Codable {
        var server: String
    }

    static let defaultServer = "http://127.0.0.1:8080"

    /// `report` hears the upload queue's events in place of the usual progress lines.
    init(options: ServerOptions, output: Output = Output(), report: (@Sendable (UploadEvent) -> Void)? = nil) throws {
        let environment = ProcessInfo.processInfo.environment
        directory =
            environment["MYDAY_HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".myday", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        lock = try Self.lock(directory.appendingPathComponent("lock"), output: output)
        let remembered = (try? Data(contentsOf: directory.appendingPathComponent("settings.json")))
            .flatMap { try? JSONDecoder().decode(Settings.self, from: $0) }?.server
        let server = options.server ?? environment["MYDAY_SERVER"] ?? remembered ?? Self.defaultServer
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("\(server) is not an http(s) URL.")
        }
        serverURL = url
        core = try ClientCore.live(
            directory: directory, serverURL: url,
            credentials: FileCredentialStore(file: directory.appendingPathComponent("credentials.json")),
            report: report ?? output.uploadEvent)
        try core.recoverAfterLaunch()
    }

    /// Takes the folder's lock, waiting (and saying so) while another `myday` holds it.
    private static func lock(_ file: URL, output: Output) throws -> FileHandle {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CLIError("Cannot open \(file.path): \(String(cString: strerror(errno))).") }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            output.note("Waiting for another myday command to finish…")
            guard flock(descriptor, LOCK_EX) == 0 else { throw CLIError("Cannot lock \(file.path).") }
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Remembers the server, so later commands need no `--server`.
    func rememberServer() throws {
        let data = try JSONEncoder().encode(Settings(server: serverURL.absoluteString))
        try data.write(to: directory.appendingPathComponent("settings.json"), options: .atomic)
    }

    /// The entry an id or its first characters (as `myday list` shows them) name.
    func entry(matching prefix: String) throws -> LocalEntry {
        let wanted = prefix.lowercased()
        let matches = try core.store.entries().filter { $0.id.uuidString.lowercased().hasPrefix(wanted) }
        guard let entry = matches.first else { throw ValidationError("No entry \(prefix) here; try `myday sync`.") }
        guard matches.count == 1 else { throw ValidationError("\(prefix) names \(matches.count) entries; give more of the id.") }
        return entry
    }
}
