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
}
