import Testing

@testable import MyDayServer

/// Reading `Authorization: Bearer <token>`: the scheme in any case, blanks around the token ignored, nothing else.
@Suite struct BearerCredentialTests {
    @Test(
        arguments: [
            ("Bearer abc.def", "abc.def"), ("bearer abc", "abc"), ("BEARER abc", "abc"), ("Bearer   abc \t", "abc"),
            ("Bearer\tabc", nil), ("Basic abc", nil), ("Bearer ", nil), ("Bearer    ", nil), ("Bearerabc", nil), ("", nil),
            ("Beare abc", nil), ("Bearér abc", nil),
        ] as [(String, String?)])
    func readsTheToken(_ header: String, _ token: String?) {
        #expect(BearerCredential.token(in: header).map(String.init) == token)
    }

    @Test func noHeaderHasNoToken() {
        #expect(BearerCredential.token(in: nil) == nil)
    }
}
