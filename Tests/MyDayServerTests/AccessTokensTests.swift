import Foundation
import Testing

@testable import MyDayServer

/// Access tokens verified once are kept until they expire, and never longer; a kept token vouches for nothing else.
struct AccessTokensTests {
    let user = UserRecord(
        id: UUID(), email: "kept@example.com", name: nil, hasPassword: true, createdAt: Date(), tokenVersion: 3)

    @Test func aVerifiedTokenIsKeptUntilItExpiresAndNoLonger() async throws {
        // Given a token verified once
        let tokens = await AccessTokens(secret: Array("a secret of the server, long enough".utf8), lifetime: .seconds(900))
        let now = Date()
        let token = try await tokens.make(for: user, signedInAt: now, now: now)
        let claims = try #require(await tokens.verify(token, now: now))
        #expect(claims.ver == 3 && claims.sub.value == user.id.lowercased)
        // Then it verifies again within its life, and not after it, kept or not
        #expect(await tokens.verify(token, now: now.addingTimeInterval(800)) == claims)
        #expect(await tokens.verify(token, now: now.addingTimeInterval(901)) == nil)
        #expect(await tokens.verify(token, now: now.addingTimeInterval(950)) == nil)
    }

    @Test func aKeptTokenVouchesForNoOtherToken() async throws {
        let tokens = await AccessTokens(secret: Array("a secret of the server, long enough".utf8), lifetime: .seconds(900))
        let token = try await tokens.make(for: user, signedInAt: Date())
        #expect(await tokens.verify(token) != nil)
        // A token changed by one character, or signed with another secret, is refused though the original is kept
        var tampered = Array(token)
        tampered[tampered.count - 3] = tampered[tampered.count - 3] == "A" ? "B" : "A"
        #expect(await tokens.verify(String(tampered)) == nil)
        let stranger = await AccessTokens(secret: Array("another secret, also long enough!!".utf8), lifetime: .seconds(900))
        #expect(await tokens.verify(try await stranger.make(for: user, signedInAt: Date())) == nil)
    }
}
