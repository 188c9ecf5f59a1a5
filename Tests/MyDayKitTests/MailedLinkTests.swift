import Foundation
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

    @Test func aLinkThatOpensTheAppIsReadForWhatItAsks() throws {
        let url = { (text: String) in try #require(URL(string: text)) }
        #expect(
            MailedLink.request(in: try url("https://diary.example/#/verify/abc_DEF-123")) == .confirmAddress(token: "abc_DEF-123")
        )
        #expect(MailedLink.request(in: try url("https://diary.example/#/reset/xyz")) == .setPassword(token: "xyz"))
        for other in [
            "https://diary.example/#/library", "https://diary.example/#/entry/5a1c", "https://diary.example/app/#/verify/x",
            "https://diary.example/#/verify/", "https://diary.example/#/verify/a%20b", "https://diary.example/",
        ] {
            #expect(MailedLink.request(in: try url(other)) == nil, "\(other)")
        }
    }
}

@MainActor
@Suite struct MailedLinkOpeningTests {
    let harness = CoreHarness()

    @Test func aConfirmationLinkIsUsedAtOnceAndAPasswordLinkIsHandedOn() async throws {
        let server = try #require(URL(string: "https://diary.example"))
        var client = FakeMyDayClient()
        client.onVerifyEmail = { token in
            guard token == "good" else {
                throw MyDayClientError.server(
                    status: 422, code: "link_expired", message: "This link has expired.", retryAfter: nil)
            }
            return "new@example.com"
        }
        let core = harness.core(client)
        // (the fake fails the test if a password link or another server's link reaches the server)
        #expect(
            await core.openMailedLink(try #require(URL(string: "https://diary.example/#/verify/good")), server: server)
                == .confirmed(email: "new@example.com"))
        #expect(
            await core.openMailedLink(try #require(URL(string: "https://diary.example/#/reset/tok")), server: server)
                == .setPassword(token: "tok"))
        if case .failed(let reason) = await core.openMailedLink(
            try #require(URL(string: "https://diary.example/#/verify/old")), server: server)
        {
            #expect(reason.contains("expired"))
        } else {
            Issue.record("a refused link did not say why")
        }
        #expect(
            await core.openMailedLink(try #require(URL(string: "https://elsewhere.example/#/verify/good")), server: server) == nil
        )
    }
}

@Suite struct MailedLinkOutcomeTests {
    @Test func eachOutcomeSaysWhatTheLinkDid() {
        // A confirmed address is said with its address
        let confirmed = MailedLinkOutcome.confirmed(email: "sam@example.com")
        #expect(confirmed.title == "Address confirmed")
        #expect(confirmed.message == "sam@example.com is confirmed as your My Day address.")
        #expect(confirmed.passwordToken == nil)
        // A refused link gives the server's reason
        let failed = MailedLinkOutcome.failed("This link was used already.")
        #expect(failed.title == "The link did not work" && failed.message == "This link was used already.")
        // A password link says nothing: its sheet opens with the token
        let password = MailedLinkOutcome.setPassword(token: "abc")
        #expect(password.message == nil && password.passwordToken == "abc")
    }
}
