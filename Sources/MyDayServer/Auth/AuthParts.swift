/// How people sign in: passwords, access tokens and the Apple and Google token checks, built once per process.
struct AuthParts: Sendable {
    let passwords: PasswordHasher
    let accessTokens: AccessTokens
    let identityVerifiers: IdentityVerifiers
}
