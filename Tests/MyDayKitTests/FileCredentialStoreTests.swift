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

@Suite struct StoredSessionTests {
    let credentials = Credentials(
        accessToken: "access", refreshToken: "refresh", accessTokenExpiresAt: Given.now,
        account: Account(id: UUID(), email: "a@example.com", name: nil, hasPassword: true, createdAt: Given.now))

    /// A store that cannot be read, as a Keychain before the device's first unlock.
    struct LockedStore: CredentialStore {
        struct Locked: Error {}
        func load() throws -> Credentials? { throw Locked() }
        func save(_ credentials: Credentials) throws { throw Locked() }
        func clear() throws { throw Locked() }
    }

    @Test func aStoreThatCannotBeReadSaysNothingOfTheSession() throws {
        let store = InMemoryCredentialStore(credentials)
        #expect(store.holdsSession == true)
        try store.clear()
        #expect(store.holdsSession == false)
        #expect(LockedStore().holdsSession == nil)
    }

    @Test func aSessionFromBeforeAReinstallIsForgottenAndOneWithItsDiaryKept() throws {
        // Given a session kept while the diary's folder has no database (the app was deleted and installed again)
        let folder = Given.folder()
        let store = InMemoryCredentialStore(credentials)
        store.forgetUnlessDiaryIn(folder)
        // Then it is forgotten
        #expect(try store.load() == nil)
        // And a session whose diary is there stays
        try store.save(credentials)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(atPath: folder.appendingPathComponent(ClientCore.storeFileName).path, contents: Data())
        )
        store.forgetUnlessDiaryIn(folder)
        #expect(try store.load() == credentials)
    }
}
