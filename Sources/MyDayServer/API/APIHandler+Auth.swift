import Foundation
import MyDayAPI

extension APIHandler {
    func registerWithEmail(_ input: Operations.RegisterWithEmail.Input) async throws -> Operations.RegisterWithEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.authRequest(from: ClientAddress.current)
        let email = try Validation.email(body.email)
        let password = try Validation.newPassword(body.password, email: email)
        let hash = try await passwords.hash(password)
        do {
            let user = try await users.registerEmailUser(email: email, passwordHash: hash, mailsLinks: publicURL != nil)
            logger.info("user registered", metadata: ["user": "\(user.id.lowercased)", "provider": "email"])
            return .created(.init(body: .json(try await startSession(for: user))))
        } catch UserStore.RegistrationError.emailTaken {
            throw APIError.conflict("An account with this email exists; sign in instead.")
        }
    }

    func loginWithEmail(_ input: Operations.LoginWithEmail.Input) async throws -> Operations.LoginWithEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.authRequest(from: ClientAddress.current)
        let email = Validation.normalizedEmail(try Validation.printable(body.email, field: "email"))
        let account = String(email.unicodeScalars.prefix(254))
        try await limits.passwordSignIn(account: account)
        guard let login = try await users.emailLogin(email: email) else {
            // Spend the same time as a wrong password, so the answer does not tell whether the email exists.
            _ = try await passwords.verify(body.password, hash: try await passwords.decoyHash())
            logger.notice("security: sign-in to no account", metadata: ["address": "\(ClientAddress.current)"])
            throw APIError.wrongCredentials
        }
        guard try await passwords.verify(body.password, hash: login.passwordHash) else {
            logger.notice(
                "security: wrong password",
                metadata: ["user": "\(login.user.id.lowercased)", "address": "\(ClientAddress.current)"])
            throw APIError.wrongCredentials
        }
        try await limits.passwordSignInSucceeded(account: account)
        return .ok(.init(body: .json(try await startSession(for: login.user))))
    }

    func signInWithApple(_ input: Operations.SignInWithApple.Input) async throws -> Operations.SignInWithApple.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.authRequest(from: ClientAddress.current)
        let name = try Validation.name(body.name)
        let (session, created, identity) = try await signIn(.apple, token: body.identityToken, nonce: body.nonce, name: name)
        await keepAppleRefreshToken(code: body.authorizationCode, identity: identity, userID: session.user.id)
        return created ? .created(.init(body: .json(session))) : .ok(.init(body: .json(session)))
    }

    func signInWithGoogle(_ input: Operations.SignInWithGoogle.Input) async throws -> Operations.SignInWithGoogle.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.authRequest(from: ClientAddress.current)
        let (session, created, _) = try await signIn(.google, token: body.idToken, nonce: body.nonce, name: nil)
        return created ? .created(.init(body: .json(session))) : .ok(.init(body: .json(session)))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.refresh(from: ClientAddress.current)
        let newToken = RefreshTokens.make()
        let rotation = try await sessions.rotate(
            presentedHash: RefreshTokens.hash(body.refreshToken), newHash: RefreshTokens.hash(newToken))
        switch rotation {
        case .rotated(let user, let signedInAt):
            return .ok(.init(body: .json(try await session(for: user, refreshToken: newToken, signedInAt: signedInAt))))
        case .reused(let userID, let familyID):
            logger.warning(
                "security: a used refresh token was presented again; its login is revoked on every device",
                metadata: ["user": "\(userID.lowercased)", "family": "\(familyID)", "address": "\(ClientAddress.current)"])
            throw APIError.unauthorized
        case .invalid:
            throw APIError.unauthorized
        }
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await sessions.revokeFamily(ofTokenHash: RefreshTokens.hash(body.refreshToken))
        return .noContent(.init())
    }

    func logoutAll(_ input: Operations.LogoutAll.Input) async throws -> Operations.LogoutAll.Output {
        let user = try RequestUser.required()
        try await users.signOutEverywhere(userID: user.id)
        try await housekeeping.deleteExpiredArchives(userID: user.id)
        logger.info("signed out everywhere", metadata: ["user": "\(user.id.lowercased)"])
        return .noContent(.init())
    }

    func forgotPassword(_ input: Operations.ForgotPassword.Input) async throws -> Operations.ForgotPassword.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.authRequest(from: ClientAddress.current)
        let email = try Validation.email(body.email)
        try await limits.accountMail(to: email, askedFrom: ClientAddress.current)
        // Queued whether or not anyone has the address: the same work, the same answer. The job looks the account up.
        try await users.queuePasswordResetMail(email: email)
        return .accepted(.init())
    }

    func resetPassword(_ input: Operations.ResetPassword.Input) async throws -> Operations.ResetPassword.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.authRequest(from: ClientAddress.current)
        let tokenHash = RefreshTokens.hash(body.token)
        // The password is judged against the address the link went to before it is hashed; the link is used up only
        // in the transaction that sets the password.
        guard let pending = try await users.emailOfUnusedLink(tokenHash: tokenHash, purposes: [.passwordReset, .verification])
        else {
            throw APIError.linkExpired
        }
        let password = try Validation.newPassword(body.newPassword, field: "new_password", email: pending)
        let refreshToken = RefreshTokens.make()
        guard
            let user = try await users.resetPassword(
                tokenHash: tokenHash, newHash: try await passwords.hash(password),
                newRefreshTokenHash: RefreshTokens.hash(refreshToken),
                expiresAt: Date().addingTimeInterval(refreshTokenLifetime.seconds))
        else { throw APIError.linkExpired }
        try await housekeeping.deleteExpiredArchives(userID: user.id)
        logger.info("password set from a mailed link; every other login ended", metadata: ["user": "\(user.id.lowercased)"])
        return .ok(.init(body: .json(try await session(for: user, refreshToken: refreshToken, signedInAt: Date()))))
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await limits.authRequest(from: ClientAddress.current)
        let tokenHash = RefreshTokens.hash(body.token)
        switch try await users.confirmEmailChange(tokenHash: tokenHash) {
        case .changed(let user):
            logger.info("email address changed", metadata: ["user": "\(user.id.lowercased)"])
            return .ok(.init(body: .json(.init(email: user.email))))
        case .addressTaken:
            throw APIError.conflict("Another My Day account uses this address now, so yours stays as it was.")
        case .invalid:
            break
        }
        switch try await users.verifyEmail(tokenHash: tokenHash, openedBy: RequestUser.current?.id) {
        case .verified(let user):
            logger.info("email address confirmed", metadata: ["user": "\(user.id.lowercased)"])
            return .ok(.init(body: .json(.init(email: user.email))))
        case .creatorUnproven:
            throw APIError.confirmationNeedsSignIn
        case .invalid:
            throw APIError.linkExpired
        }
    }

    /// Signs in with a verified provider identity: its account, or a new one when the email is free.
    private func signIn(_ provider: SignInProvider, token: String, nonce: String?, name: String?) async throws -> (
        Components.Schemas.Session, created: Bool, identity: VerifiedIdentity
    ) {
        let identity = try await verifiedIdentity(provider, token: token, nonce: nonce, failure: .unauthorized)
        if let user = try await users.user(provider: provider.rawValue, subject: identity.subject) {
            if let name, user.name == nil { try await users.fillInName(name, userID: user.id) }
            return (try await startSession(for: user), false, identity)
        }
        guard let email = identity.verifiedEmail else {
            throw APIError.unprocessable(
                "\(provider.displayName) did not share a verified email address; allow My Day to see it (a private relay address works)."
            )
        }
        do {
            let user = try await users.registerProviderUser(
                provider: provider.rawValue, subject: identity.subject, email: email, name: name)
            logger.info("user registered", metadata: ["user": "\(user.id.lowercased)", "provider": "\(provider.rawValue)"])
            return (try await startSession(for: user), true, identity)
        } catch UserStore.RegistrationError.emailTaken {
            // A first sign-in on another device may have made this identity's account a moment ago.
            if let user = try await users.user(provider: provider.rawValue, subject: identity.subject) {
                return (try await startSession(for: user), false, identity)
            }
            // Nobody ever confirmed the address: the provider vouches that this person owns it (ADR 0029). (A sign-in on
            // another device may link this identity meanwhile: then the claim rolls back and that account answers.)
            let claimed: UserRecord?
            do {
                claimed = try await users.claimUnconfirmedAccount(
                    email: email, provider: provider.rawValue, subject: identity.subject, identityEmail: identity.email)
            } catch UserStore.RegistrationError.identityTaken {
                claimed = try await users.user(provider: provider.rawValue, subject: identity.subject)
            }
            if let user = claimed {
                logger.notice(
                    "security: the owner of an unconfirmed address claimed its account; every other way in ended",
                    metadata: ["user": "\(user.id.lowercased)", "provider": "\(provider.rawValue)"])
                return (try await startSession(for: user), false, identity)
            }
            throw APIError.conflict(
                "An account with this email exists. Sign in to it, then link \(provider.displayName) in your profile.")
        } catch UserStore.RegistrationError.identityTaken {
            // A first sign-in on another device made the account a moment ago.
            guard let user = try await users.user(provider: provider.rawValue, subject: identity.subject) else {
                throw APIError.unauthorized
            }
            return (try await startSession(for: user), false, identity)
        }
    }

    /// Exchanges an Apple sign-in's authorization code for a refresh token and keeps it, sealed, to revoke when the
    /// account closes or Apple is unlinked. A sign-in never fails for it: without a team key, or when Apple is away,
    /// the reason goes to the log and the next sign-in tries again.
    func keepAppleRefreshToken(code: String?, identity: VerifiedIdentity, userID: String) async {
        guard let code, !code.isEmpty, identity.provider == .apple, let user = UUID(uuidString: userID) else { return }
        guard let appleTokens else {
            logger.debug("an Apple authorization code arrived; no team key is configured to exchange it")
            return
        }
        do {
            let token = try await appleTokens.exchange(
                code: code, clientID: identity.audience, redirectURI: AppleSignInRedirect.current)
            try await users.keepProviderRefreshToken(
                try providerTokenSealer.seal(token), clientID: identity.audience, provider: SignInProvider.apple.rawValue,
                subject: identity.subject, userID: user)
        } catch {
            logger.warning(
                "Apple authorization code not exchanged; this sign-in keeps no token to revoke",
                metadata: ["user": "\(user.lowercased)", "reason": "\(error)"])
        }
    }

    /// Verifies an Apple or Google token; a token that fails any check answers `failure`, and the reason goes to the log only.
    func verifiedIdentity(_ provider: SignInProvider, token: String, nonce: String?, failure: APIError) async throws
        -> VerifiedIdentity
    {
        do {
            return try await identityVerifiers.verifier(for: provider).verify(token, nonce: nonce)
        } catch let error as IdentityTokenError {
            logger.warning(
                "security: \(provider.rawValue) token refused",
                metadata: ["reason": "\(error.reason)", "address": "\(ClientAddress.current)"])
            throw failure
        }
    }

    /// A new session for `user` as a sign-in just saw them; 401 when their sessions ended meanwhile.
    func startSession(for user: UserRecord) async throws -> Components.Schemas.Session {
        let refreshToken = RefreshTokens.make()
        guard
            try await sessions.startFamily(
                userID: user.id, tokenVersion: user.tokenVersion, tokenHash: RefreshTokens.hash(refreshToken),
                expiresAt: Date().addingTimeInterval(refreshTokenLifetime.seconds))
        else { throw APIError.unauthorized }
        return try await session(for: user, refreshToken: refreshToken, signedInAt: Date())
    }

    func session(for user: UserRecord, refreshToken: String, signedInAt: Date) async throws -> Components.Schemas.Session {
        Components.Schemas.Session(
            accessToken: try await accessTokens.make(for: user, signedInAt: signedInAt), refreshToken: refreshToken,
            tokenType: .bearer,
            expiresIn: Int(accessTokens.lifetime.seconds), user: Self.schema(user))
    }

    static func schema(_ user: UserRecord) -> Components.Schemas.User {
        .init(
            id: user.id.lowercased, email: user.email, emailVerified: user.emailVerified, name: user.name,
            hasPassword: user.hasPassword, createdAt: user.createdAt)
    }
}

extension APIError {
    static let linkExpired = APIError(
        status: .unprocessableContent, code: "link_expired",
        message: "This link has expired or was used already; ask for a new one.")
    static let confirmationNeedsSignIn = APIError(
        status: .forbidden, code: "confirmation_needs_sign_in",
        message:
            "Sign in to this account on this device to confirm the address. If you did not create the account, set a password with this link: every other way in then ends."
    )
    static let wrongCredentials = APIError(
        status: .unauthorized, code: "unauthorized", message: "The email or the password is wrong.")
}
