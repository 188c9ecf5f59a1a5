import ArgumentParser
import MyDayKit

/// `myday register`: creates an account and signs in.
struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create an account with email and password, and sign in.")

    @OptionGroup var server: ServerOptions
    @Option(help: "The account's email.") var email: String
    @OptionGroup var password: PasswordOptions

    func run() async throws {
        let workspace = try Workspace(options: server)
        let password = try password.resolve()
        let account = try await workspace.core.signIn { try await $0.register(email: email, password: password) }
        try workspace.rememberServer()
        Output().line("Registered and signed in as \(account.email) on \(workspace.serverURL.absoluteString).")
    }
}

/// `myday login`: signs in with email and password.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign in with email and password.")

    @OptionGroup var server: ServerOptions
    @Option(help: "The account's email.") var email: String
    @OptionGroup var password: PasswordOptions

    func run() async throws {
        let workspace = try Workspace(options: server)
        let password = try password.resolve()
        let account = try await workspace.core.signIn { try await $0.login(email: email, password: password) }
        try workspace.rememberServer()
        Output().line("Signed in as \(account.email) on \(workspace.serverURL.absoluteString).")
    }
}

/// `myday logout`: ends the session and forgets this device's copy of the diary.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign out and forget the diary on this device (refused while entries are unsent).")

    @OptionGroup var server: ServerOptions
    @Flag(help: "Sign out even though some entries never reached the server; they are lost.") var discardUnsent = false

    func run() async throws {
        let workspace = try Workspace(options: server)
        try await workspace.core.signOut(discardingUnsent: discardUnsent)
        Output().line("Signed out.")
    }
}
