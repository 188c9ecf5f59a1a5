import Foundation
import MyDayAPI

extension APIHandler {
    func registerWithEmail(_ input: Operations.RegisterWithEmail.Input) async throws -> Operations.RegisterWithEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let email = try Validation.email(body.email)
        let password = try Validation.newPassword(body.password)
        let hash = try await passwords.hash(password)
        do {
            let user = try await users.registerEmailUser(email: email, passwordHash: hash)
            logger.info("user registered", metadata: ["user": "\(user.id.lowercased)"])
            return .created(.init(body: .json(try await startSession(for: user))))
        } catch UserStore.RegistrationError.emailTaken {
            throw APIError.conflict("An account with this email exists; sign in instead.")
        }
    }

    func loginWithEmail(_ input: Operations.LoginWithEmail.Input) async throws -> Operations.LoginWithEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let email = Validation.normalizedEmail(body.email)
        guard let login = try await users.emailLogin(email: email) else {
            // Spend the same time as a wrong password, so the answer does not tell whether the email exists.
            _ = try await passwords.verify(body.password, hash: PasswordHasher.decoyHash)
            throw APIError.wrongCredentials
        }
        guard try await passwords.verify(body.password, hash: login.passwordHash) else { throw APIError.wrongCredentials }
        return .ok(.init(body: .json(try await startSession(for: login.user))))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let newToken = RefreshTokens.make()
        let rotation = try await sessions.rotate(
            presentedHash: RefreshTokens.hash(body.refreshToken), newHash: RefreshTokens.hash(newToken),
            newExpiresAt: Date().addingTimeInterval(refreshTokenLifetime.seconds))
        switch rotation {
        case .rotated(let userID):
            guard let user = try await users.user(id: userID) else { throw APIError.unauthorized }
            return .ok(.init(body: .json(try await session(for: user, refreshToken: newToken))))
        case .reused:
            logger.warning("security: a used refresh token was presented again; its login is revoked")
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

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        .ok(.init(body: .json(Self.schema(try RequestUser.required()))))
    }

    private func startSession(for user: UserRecord) async throws -> Components.Schemas.Session {
        let refreshToken = RefreshTokens.make()
        try await sessions.startFamily(
            userID: user.id, tokenHash: RefreshTokens.hash(refreshToken),
            expiresAt: Date().addingTimeInterval(refreshTokenLifetime.seconds))
        return try await session(for: user, refreshToken: refreshToken)
    }

    private func session(for user: UserRecord, refreshToken: String) async throws -> Components.Schemas.Session {
        Components.Schemas.Session(
            accessToken: try await accessTokens.make(for: user), refreshToken: refreshToken, tokenType: .bearer,
            expiresIn: Int(accessTokens.lifetime.seconds), user: Self.schema(user))
    }

    static func schema(_ user: UserRecord) -> Components.Schemas.User {
        .init(id: user.id.lowercased, email: user.email, createdAt: user.createdAt)
    }
}

extension APIError {
    static let wrongCredentials = APIError(
        status: .unauthorized, code: "unauthorized", message: "The email or the password is wrong.")
}
