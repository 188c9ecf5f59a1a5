import ArgumentParser
import MyDayKit

/// What `register` and `login` take: the server, the email and the password.
struct EmailSignInOptions: ParsableArguments {
    @OptionGroup var server: ServerOptions
    @Option(help: "The account's email.") var email: String
    @OptionGroup var password: PasswordOptions

    /// Signs in with `operation` (given the email and password), remembers the server, and says so.
    func signIn(saying done: String, _ operation: @escaping (any MyDayClient, String, String) async throws -> Account)
        async throws
    {
        let workspace = try Workspace(options: server)
        let email = email
        let password = try password.resolve()
        let account = try await workspace.core.signIn { try await operation($0, email, password) }
        try workspace.rememberServer()
        Output().line("\(done) as \(account.email) on \(workspace.serverURL.absoluteString).")
    }
}

/// `myday register`: creates an account and signs in.
struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create an account with email and password, and sign in.")

    @OptionGroup var options: EmailSignInOptions

    func run() async throws {
        try await options.signIn(saying: "Registered and signed in") { try await $0.register(email: $1, password: $2) }
    }
}

/// `myday login`: signs in with email and password.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign in with email and password.")

    @OptionGroup var options: EmailSignInOptions

    func run() async throws {
        try await options.signIn(saying: "Signed in") { try await $0.login(email: $1, password: $2) }
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
