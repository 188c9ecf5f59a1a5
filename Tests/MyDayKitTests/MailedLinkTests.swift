import Testing

@testable import MyDayKit

@Suite struct MailedLinkTests {
    @Test func theTokenIsTakenFromAWholeLinkOrAsPasted() {
        #expect(MailedLink.token(in: " https://diary.example/#/reset/abc_DEF-123\n", page: "reset") == "abc_DEF-123")
        #expect(MailedLink.token(in: "abc_DEF-123", page: "reset") == "abc_DEF-123")
        #expect(MailedLink.token(in: "https://diary.example/#/verify/xyz", page: "verify") == "xyz")
    }

    @Test func aPasswordMayBeSetWithAResetOrAConfirmationLink() {
        #expect(MailedLink.passwordSettingToken(in: "https://diary.example/#/reset/abc") == "abc")
        #expect(MailedLink.passwordSettingToken(in: "https://diary.example/#/verify/xyz ") == "xyz")
        #expect(MailedLink.passwordSettingToken(in: "pasted-token") == "pasted-token")
    }
}
