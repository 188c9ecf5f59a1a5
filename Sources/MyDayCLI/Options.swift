import ArgumentParser
import Foundation

/// Options every command that talks to a server takes.
struct ServerOptions: ParsableArguments {
    @Option(name: .long, help: "The server's URL, e.g. http://127.0.0.1:8080 (default: MYDAY_SERVER, then the last login).")
    var server: String?
}

/// Where the password comes from: `--password`, `MYDAY_PASSWORD`, or a prompt that does not echo.
struct PasswordOptions: ParsableArguments {
    @Option(name: .long, help: "The password (default: MYDAY_PASSWORD, else asked without echo).")
    var password: String?

    func resolve(prompt: String = "Password: ") throws -> String {
        if let password { return password }
        if let password = ProcessInfo.processInfo.environment["MYDAY_PASSWORD"] { return password }
        guard let typed = getpass(prompt), typed.pointee != 0 else { throw ValidationError("A password is needed.") }
        return String(cString: typed)
    }
}
