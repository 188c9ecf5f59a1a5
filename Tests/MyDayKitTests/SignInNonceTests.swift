import Foundation
import Testing

@testable import MyDayKit

/// The nonce of Sign in with Apple: random, URL-safe, and hashed the way the server checks it.
@Suite struct SignInNonceTests {
    @Test func eachNonceIsFreshAndItsHashIsSHA256Hex() {
        let nonces = (0..<200).map { _ in SignInNonce.make() }
        #expect(Set(nonces.map(\.raw)).count == 200)
        for nonce in nonces {
            #expect(nonce.raw.count == 32 && nonce.raw.allSatisfy { SignInNonce.alphabet.contains($0) })
            #expect(nonce.sha256 == SignInNonce.sha256(nonce.raw))
        }
        // FIPS 180-2's example: SHA-256("abc")
        #expect(SignInNonce.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
