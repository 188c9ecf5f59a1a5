import Foundation
import MyDayAPI
import MyDaySearch

extension APIHandler {
    /// How recent a sign-in must be to close the account without giving the password again.
    static let recentSignIn: TimeInterval = 5 * 60

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        .ok(.init(body: .json(Self.schema(try RequestUser.required()))))
    }

    func getStats(_ input: Operations.GetStats.Input) async throws -> Operations.GetStats.Output {
        let user = try RequestUser.required()
        let zone = try input.query.tz.map(Validation.timeZone) ?? TimeZone(identifier: "UTC")!
        let stats = DiaryStats(entries: try await entries.statsEntries(userID: user.id), today: LocalDay(clock(), in: zone))
        return .ok(
            .init(
                body: .json(
                    .init(
                        tz: zone.identifier, totalEntries: stats.totalEntries, totalDurationS: stats.totalDurationSeconds,
                        words: stats.words, currentStreakDays: stats.currentStreakDays,
                        longestStreakDays: stats.longestStreakDays,
                        months: stats.months.map {
                            .init(month: $0.month, entries: $0.entries, durationS: $0.durationSeconds)
                        },
                        storageUsedBytes: Int64(try await entries.storageUsed(userID: user.id)),
                        storageQuotaBytes: Int64(quotaBytes)))))
    }

    func getVocabulary(_ input: Operations.GetVocabulary.Input) async throws -> Operations.GetVocabulary.Output {
        let user = try RequestUser.required()
        return .ok(.init(body: .json(Self.schema(try await vocabulary.words(userID: user.id)))))
    }

    func replaceVocabulary(_ input: Operations.ReplaceVocabulary.Input) async throws -> Operations.ReplaceVocabulary.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        let words = try VocabularyStore.checked(body.words)
        return .ok(.init(body: .json(Self.schema(try await vocabulary.replace(userID: user.id, with: words)))))
    }

    private static func schema(_ words: [VocabularyWord]) -> Components.Schemas.Vocabulary {
        .init(
            words: words.map {
                .init(text: $0.text, source: .init(rawValue: $0.source.rawValue) ?? .you)
            })
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        try await limits.passwordCheck(user: user.id.lowercased)
        guard let hash = try await users.passwordHash(userID: user.id) else {
            throw APIError.conflict("This account signs in with Apple or Google and has no password to change.")
        }
        guard try await passwords.verify(body.currentPassword, hash: hash) else {
            logger.notice("security: wrong current password on password change", metadata: ["user": "\(user.id.lowercased)"])
            throw APIError.reauthenticationNeeded("The current password is wrong.")
        }
        let newPassword = try Validation.newPassword(body.newPassword, field: "new_password", email: user.email)
        let refreshToken = RefreshTokens.make()
        guard
            let updated = try await users.changePassword(
                userID: user.id, currentHash: hash, newHash: try await passwords.hash(newPassword),
                newRefreshTokenHash: RefreshTokens.hash(refreshToken),
                expiresAt: Date().addingTimeInterval(refreshTokenLifetime.seconds))
        else { throw APIError.unauthorized }
        try await housekeeping.deleteExpiredArchives(userID: user.id)
        logger.info("password changed; every other login ended", metadata: ["user": "\(user.id.lowercased)"])
        return .ok(.init(body: .json(try await session(for: updated, refreshToken: refreshToken, signedInAt: Date()))))
    }

    func deleteMe(_ input: Operations.DeleteMe.Input) async throws -> Operations.DeleteMe.Output {
        let user = try RequestUser.required()
        let proof: Components.Schemas.Reauthentication? =
            if case .json(let proof) = input.body { proof } else { nil }
        try await requireRecentSignIn(
            user, proof: proof,
            otherwise: "Deleting the account needs a recent sign-in: send the password, or sign in again first.")
        try await users.closeAccount(userID: user.id)
        answeredPages.forget(userID: user.id)
        try await housekeeping.deleteExpiredArchives(userID: user.id)
        logger.info("account closed; its data is being deleted", metadata: ["user": "\(user.id.lowercased)"])
        return .accepted(.init())
    }

    /// Passes when the user signed in within the last 5 minutes, or `proof` proves them now (the password, or a fresh
    /// token of a linked Apple or Google identity); else throws 403 `reauthentication_needed` with `otherwise`.
    func requireRecentSignIn(_ user: UserRecord, proof: Components.Schemas.Reauthentication?, otherwise: String)
        async throws
    {
        if RequestUser.signedInRecently(within: Self.recentSignIn) && proof == nil { return }
        try await limits.passwordCheck(user: user.id.lowercased)
        if let password = proof?.password {
            guard let hash = try await users.passwordHash(userID: user.id), try await passwords.verify(password, hash: hash)
            else { throw APIError.reauthenticationNeeded("The password is wrong.") }
        } else if let provider = proof?.provider, let token = proof?.token {
            let provider = SignInProvider(provider)
            let wrong = APIError.reauthenticationNeeded("The \(provider.displayName) sign-in could not be verified.")
            let identity = try await verifiedIdentity(provider, token: token, nonce: proof?.nonce, failure: wrong)
            let linked = try await users.identities(userID: user.id)
            guard linked.contains(where: { $0.provider == provider.rawValue && $0.subject == identity.subject }),
                identity.issuedAt > Date().addingTimeInterval(-Self.recentSignIn)
            else { throw wrong }
        } else if proof?.provider != nil || proof?.token != nil {
            throw APIError.badRequest("Send both 'provider' and 'token', or the 'password'.")
        } else if !RequestUser.signedInRecently(within: Self.recentSignIn) {
            throw APIError.reauthenticationNeeded(otherwise)
        }
    }

    func changeEmail(_ input: Operations.ChangeEmail.Input) async throws -> Operations.ChangeEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        let email = try Validation.email(body.email)
        guard email != user.email else { throw APIError.unprocessable("This is the account's address already.") }
        guard publicURL != nil else { throw APIError.mailUnavailable }
        try await requireRecentSignIn(
            user, proof: body.reauthentication,
            otherwise: "Changing the address needs a recent sign-in: send the password, or sign in again first.")
        try await limits.accountMail(to: email, askedFrom: ClientAddress.current)
        try await users.queueEmailChange(userID: user.id, newEmail: email, tokenVersion: user.tokenVersion)
        logger.info("address change asked for", metadata: ["user": "\(user.id.lowercased)"])
        return .accepted(.init())
    }

    func resendVerificationEmail(_ input: Operations.ResendVerificationEmail.Input) async throws
        -> Operations.ResendVerificationEmail.Output
    {
        let user = try RequestUser.required()
        guard let account = try await users.user(id: user.id) else { throw APIError.unauthorized }
        guard !account.emailVerified else { throw APIError.conflict("This address is confirmed already.") }
        guard publicURL != nil else { throw APIError.mailUnavailable }
        try await limits.accountMail(to: account.email, askedFrom: ClientAddress.current)
        try await users.queueVerificationMail(userID: user.id)
        return .accepted(.init())
    }

    func listIdentities(_ input: Operations.ListIdentities.Input) async throws -> Operations.ListIdentities.Output {
        let user = try RequestUser.required()
        return .ok(.init(body: .json(try await users.identities(userID: user.id).map(Self.schema))))
    }

    func linkIdentity(_ input: Operations.LinkIdentity.Input) async throws -> Operations.LinkIdentity.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        try await limits.authRequest(from: ClientAddress.current)
        guard RequestUser.signedInRecently(within: Self.recentSignIn) else { throw APIError.recentSignInNeeded }
        let provider = SignInProvider(input.path.provider)
        let identity = try await verifiedIdentity(
            provider, token: body.token, nonce: body.nonce,
            failure: .unprocessable(
                "The \(provider.displayName) token could not be verified; sign in with \(provider.displayName) again."))
        // A provider that vouches for the account's own address proves it, on a server that mails nothing too.
        let vouchesForAddress = identity.verifiedEmail == user.email
        switch try await users.link(
            provider: provider.rawValue, subject: identity.subject, email: identity.email, to: user.id,
            tokenVersion: user.tokenVersion, confirmsAddress: vouchesForAddress)
        {
        case .linked(let linked):
            logger.info("identity linked", metadata: ["user": "\(user.id.lowercased)", "provider": "\(provider.rawValue)"])
            await keepAppleRefreshToken(code: body.authorizationCode, identity: identity, userID: user.id.lowercased)
            return .created(.init(body: .json(Self.schema(linked))))
        case .alreadyLinked(let linked):
            await keepAppleRefreshToken(code: body.authorizationCode, identity: identity, userID: user.id.lowercased)
            return .ok(.init(body: .json(Self.schema(linked))))
        case .belongsToAnotherUser:
            throw APIError.conflict("This \(provider.displayName) account signs in to another My Day account.")
        case .providerAlreadyLinked:
            throw APIError.conflict("Another \(provider.displayName) account is linked already.")
        case .addressUnconfirmed:
            throw APIError.addressUnconfirmed
        case .sessionEnded:
            throw APIError.unauthorized
        }
    }

    func unlinkIdentity(_ input: Operations.UnlinkIdentity.Input) async throws -> Operations.UnlinkIdentity.Output {
        let user = try RequestUser.required()
        guard RequestUser.signedInRecently(within: Self.recentSignIn) else { throw APIError.recentSignInNeeded }
        let provider = SignInProvider(input.path.provider)
        switch try await users.unlink(provider: provider.rawValue, from: user.id) {
        case .unlinked:
            logger.info("identity unlinked", metadata: ["user": "\(user.id.lowercased)", "provider": "\(provider.rawValue)"])
            return .noContent(.init())
        case .notLinked: throw APIError.notFound
        case .lastWayToSignIn:
            throw APIError.conflict("This is the only way to sign in to the account; link another or set a password first.")
        }
    }

    func removePassword(_ input: Operations.RemovePassword.Input) async throws -> Operations.RemovePassword.Output {
        let user = try RequestUser.required()
        guard RequestUser.signedInRecently(within: Self.recentSignIn) else { throw APIError.recentSignInNeeded }
        switch try await users.removePassword(userID: user.id) {
        case .removed:
            logger.info("password removed", metadata: ["user": "\(user.id.lowercased)"])
            return .noContent(.init())
        case .noPassword: throw APIError.notFound
        case .lastWayToSignIn:
            throw APIError.conflict("The password is the only way to sign in to the account; link Apple or Google first.")
        }
    }

    static func schema(_ identity: IdentityRecord) -> Components.Schemas.Identity {
        .init(
            provider: .init(rawValue: identity.provider) ?? .email, email: identity.email, createdAt: identity.createdAt)
    }
}

extension SignInProvider {
    init(_ provider: Components.Schemas.IdentityProvider) {
        switch provider {
        case .apple: self = .apple
        case .google: self = .google
        }
    }
}

extension APIError {
    static func reauthenticationNeeded(_ message: String) -> APIError {
        .init(status: .forbidden, code: "reauthentication_needed", message: message)
    }
    static let recentSignInNeeded = reauthenticationNeeded("This needs a sign-in in the last 5 minutes; sign in again first.")
    static let addressUnconfirmed = APIError(
        status: .conflict, code: "email_unconfirmed",
        message: "Confirm the account's address first (the link in the mail), then link Apple or Google.")
    static let mailUnavailable = APIError(
        status: .conflict, code: "mail_unavailable",
        message: "This server does not send mail: its operator has not set MYDAY_PUBLIC_URL.")
}
