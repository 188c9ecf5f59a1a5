import Foundation
import MyDayKit
import Testing

@Suite struct FileCredentialStoreTests {
    @Test func keepsTheSessionInAFileOnlyItsOwnerCanRead() throws {
        // Given a store in a fresh folder
        let file = Given.folder().appendingPathComponent("state/credentials.json")
        let store = FileCredentialStore(file: file)
        #expect(try store.load() == nil)
        // When a session is saved
        let account = Account(id: UUID(), email: "a@example.com", name: nil, hasPassword: true, createdAt: Given.now)
        let credentials = Credentials(
            accessToken: "access", refreshToken: "refresh", accessTokenExpiresAt: Given.now, account: account)
        try store.save(credentials)
        // Then it reads back the same, the file is 0600, and clearing removes it
        #expect(try store.load() == credentials)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        try store.clear()
        #expect(try store.load() == nil)
        try store.clear()
    }
}
