import Foundation
import MyDayKit
import Testing

@Suite struct ServerAddressTests {
    @Test(arguments: [
        ("diary.example.org", "https://diary.example.org"),
        ("  https://diary.example.org:8443/  ", "https://diary.example.org:8443/"),
        ("http://192.168.1.20:8080", "http://192.168.1.20:8080"),
        ("HTTPS://Diary.Example.org", "HTTPS://Diary.Example.org"),
    ])
    func aWebAddressWithAHostIsTaken(typed: String, url: String) {
        #expect(ServerAddress.url(from: typed)?.absoluteString == url)
    }

    @Test(arguments: ["", "   ", "ftp://diary.example.org", "https://", "file:///etc/passwd"])
    func anythingElseIsRefused(typed: String) {
        #expect(ServerAddress.url(from: typed) == nil)
    }

    @Test func anAddressTypedAsTheServerInUseNamesIt() throws {
        let current = try #require(URL(string: "https://diary.example.org"))
        // The same server, typed as people type it, would change nothing
        #expect(ServerAddress.names("diary.example.org", current: current))
        #expect(ServerAddress.names(" https://diary.example.org\n", current: current))
        // Another scheme, host or port is another server, and what is no address is for the check to refuse
        for other in ["http://diary.example.org", "diary.example.com", "diary.example.org:8443", "", "ftp://x"] {
            #expect(!ServerAddress.names(other, current: current), "\(other)")
        }
    }
}

@Suite struct InitialServerTests {
    @Test func thePersonsChoiceComesFirstThenTheBuildsThenThisMachine() {
        #expect(
            ServerAddress.initial(stored: "https://mine.example", configured: "https://build.example").absoluteString
                == "https://mine.example")
        #expect(
            ServerAddress.initial(stored: nil, configured: " https://build.example\n").absoluteString == "https://build.example")
        // A build that sets no server leaves its setting empty, unexpanded or without a scheme
        for unset in [nil, "", "$(MYDAY_SERVER_URL)", "diary.example"] {
            #expect(
                ServerAddress.initial(stored: nil, configured: unset).absoluteString == "http://localhost:8080",
                "\(unset ?? "nil")")
        }
        #expect(ServerAddress.buildSetting("$(MYDAY_GOOGLE_CLIENT_ID)") == nil)
        #expect(ServerAddress.buildSetting(" 123.apps.googleusercontent.com ") == "123.apps.googleusercontent.com")
    }
}
