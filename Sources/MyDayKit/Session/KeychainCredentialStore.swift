#if canImport(Security)
    import Foundation
    import Security

    /// Credentials in the Keychain, readable after the first unlock so background uploads can refresh tokens.
    public struct KeychainCredentialStore: CredentialStore {
        public let service: String
        public let account: String

        public init(service: String = "com.example.myday.session", account: String = "default") {
            self.service = service
            self.account = account
        }

        public func load() throws -> Credentials? {
            var query = baseQuery
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
            return try JSONDecoder.myDay.decode(Credentials.self, from: data)
        }

        public func save(_ credentials: Credentials) throws {
            let data = try JSONEncoder.myDay.encode(credentials)
            let update: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            let status = SecItemUpdate(baseQuery as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                let added = SecItemAdd(baseQuery.merging(update) { $1 } as CFDictionary, nil)
                guard added == errSecSuccess else { throw KeychainError(status: added) }
            } else if status != errSecSuccess {
                throw KeychainError(status: status)
            }
        }

        public func clear() throws {
            let status = SecItemDelete(baseQuery as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
        }

        private var baseQuery: [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            #if os(macOS)
                // The iOS-style keychain, where the accessibility setting applies, instead of the file-based one.
                query[kSecUseDataProtectionKeychain as String] = true
            #endif
            return query
        }
    }

    /// A Keychain call failed with this `OSStatus`.
    public struct KeychainError: Error {
        public let status: OSStatus
    }
#endif
