import ArgumentParser
import MyDayKit

/// `myday sign-ins [remove KIND]`: the account's ways to sign in, and stopping one.
struct SignIns: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-ins",
        abstract: "List the account's ways to sign in (password, Apple, Google), or remove one.",
        subcommands: [ListMethods.self, Remove.self], defaultSubcommand: ListMethods.self)

    /// `myday sign-ins list`
    struct ListMethods: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the ways to sign in.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            let workspace = try Workspace(options: server)
            for method in try await workspace.core.client.signInMethods() {
                Output().line("\(method.kind.name)\t\(method.label)")
            }
        }
    }

    /// `myday sign-ins remove password|apple|google`
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop signing in one way (never the last); needs a sign-in in the last 5 minutes.")

        @OptionGroup var server: ServerOptions
        @Argument(help: "password, apple or google.") var kind: String

        func run() async throws {
            let workspace = try Workspace(options: server)
            let chosen: SignInMethod.Kind
            switch kind.lowercased() {
            case "password": chosen = .password
            case let name:
                guard let provider = IdentityProvider(rawValue: name) else {
                    throw ValidationError("'\(kind)' is not a way to sign in: say password, apple or google.")
                }
                chosen = .provider(provider)
            }
            do {
                try await workspace.core.client.removeSignInMethod(chosen)
            } catch MyDayClientError.server(403, "reauthentication_needed", _, _) {
                throw CLIError("This needs a sign-in in the last 5 minutes: run `myday login`, then try again.")
            }
            Output().line("\(chosen.name) no longer signs in to this account.")
        }
    }
}

extension SignInMethod.Kind {
    /// `password`, `apple` or `google`, as the command line names them.
    var name: String {
        switch self {
        case .password: "password"
        case .provider(let provider): provider.rawValue
        }
    }
}
