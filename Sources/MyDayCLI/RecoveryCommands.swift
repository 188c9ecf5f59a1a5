import ArgumentParser
import MyDayKit

/// `myday password forgot|reset`: a new password through a link mailed to the account's address.
struct Password: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Forgot the password? Have a link mailed, then set a new one with its token.",
        subcommands: [Forgot.self, Reset.self])

    /// `myday password forgot`
    struct Forgot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mail a link that sets a new password to this address.")

        @OptionGroup var server: ServerOptions
        @Option(help: "The account's email.") var email: String

        func run() async throws {
            let workspace = try Workspace(options: server)
            try await workspace.core.client.forgotPassword(email: email)
            Output().line(
                "If an account has \(email), a link is on its way to it. It works once, for 30 minutes: run "
                    + "`myday password reset <token>` with the last part of the link, or open it in a browser.")
        }
    }

    /// `myday password reset TOKEN`
    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a new password with the token of a mailed link, and sign in (every other device is signed out).")

        @OptionGroup var server: ServerOptions
        @Argument(help: "The mailed link, or its last part (after /#/reset/ or /#/verify/).") var token: String
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let workspace = try Workspace(options: server)
            // A confirmation link proves the address as well: whoever did not make the account sets a password with it.
            let token = MailedLink.passwordSettingToken(in: token)
            let newPassword = try password.resolve(prompt: "New password: ")
            let account = try await workspace.core.signIn { try await $0.resetPassword(token: token, newPassword: newPassword) }
            try workspace.rememberServer()
            Output().line("New password set; signed in as \(account.email). Every other device was signed out.")
        }
    }
}

/// `myday email verify|resend`: confirm the account's address.
struct Email: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Confirm the account's address (export links are mailed only to a confirmed address), or change it.",
        subcommands: [Verify.self, Resend.self, Change.self])

    /// `myday email change NEW`
    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the account's address: a link goes to the new one, and it changes when the link is opened.")

        @OptionGroup var server: ServerOptions
        @Argument(help: "The new address.") var email: String
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let workspace = try Workspace(options: server)
            try await workspace.core.client.changeEmail(
                to: email, proof: .password(try password.resolve(prompt: "Your password: ")))
            Output().line("A link is on its way to \(email). Open it (or run `myday email verify <link>`) to make the change.")
        }
    }

    /// `myday email verify TOKEN`
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Confirm the address with the token of the mailed link.")

        @OptionGroup var server: ServerOptions
        @Argument(help: "The last part of the mailed link (after /#/verify/), or the whole link.") var token: String

        func run() async throws {
            let workspace = try Workspace(options: server)
            do {
                let email = try await workspace.core.client.verifyEmail(token: MailedLink.token(in: token, page: "verify"))
                Output().line("\(email) is confirmed: it is the account's address.")
            } catch MyDayClientError.server(403, "confirmation_needs_sign_in", _, _) {
                throw CLIError(
                    "Only the account's maker confirms its address: run `myday login` first. If you did not make the account, "
                        + "`myday password reset <link>` sets a password with this link and makes the account yours.")
            }
        }
    }

    /// `myday email resend`
    struct Resend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mail the confirmation link again.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            let workspace = try Workspace(options: server)
            try await workspace.core.client.resendVerificationEmail()
            Output().line("Sent. Open the link in the mail, or run `myday email verify <token>`.")
        }
    }
}
