import Testing

@testable import MyDayKit

@Suite struct MyDayClientErrorTests {
    @Test func whatPeopleReadIsTheServersSentenceOrPlainWordsNeverAStatusCode() {
        let refused = MyDayClientError.server(
            status: 422, code: "unprocessable", message: "A title can have at most 200 characters.", retryAfter: nil)
        #expect(refused.description == "A title can have at most 200 characters.")
        let broken = MyDayClientError.server(status: 503, code: "unavailable", message: "upstream timeout", retryAfter: nil)
        #expect(broken.description == "The server could not do this just now; nothing was lost. Try again in a moment.")
        #expect(!MyDayClientError.unexpectedResponse("getMe").description.contains("HTTP"))
    }
}
