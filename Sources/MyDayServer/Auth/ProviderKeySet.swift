import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOHTTP1

/// An identity provider's public keys (its JWKS), fetched over HTTP and cached as long as the
/// answer's `Cache-Control: max-age` allows. A token naming an unknown key makes it fetch again, at
/// most once per `minimumRefetchInterval`, so made-up key ids cannot flood the provider; one fetch
/// runs at a time, and a failed fetch keeps the keys it had.
actor ProviderKeySet {
    let url: String
    let minimumRefetchInterval: Duration
    private let httpClient: HTTPClient
    private let logger: Logger
    private var keys = JWTKeyCollection()
    private var keyIDs: Set<String> = []
    private var expiresAt = ContinuousClock.now
    private var lastFetch: ContinuousClock.Instant?
    private var fetching: Task<Void, any Error>?

    /// The longest a key set is kept without asking the provider again, whatever its headers say.
    static let longestCache: Duration = .seconds(24 * 3600)
    /// How long a key set without `max-age` is kept.
    static let defaultCache: Duration = .seconds(3600)

    init(url: String, httpClient: HTTPClient = .shared, minimumRefetchInterval: Duration = .seconds(10), logger: Logger) {
        self.url = url
        self.httpClient = httpClient
        self.minimumRefetchInterval = minimumRefetchInterval
        self.logger = logger
    }

    /// The collection holding the key `keyID`, fetching the provider's keys when they are stale or lack it.
    func keys(containing keyID: String) async throws -> JWTKeyCollection {
        let now = ContinuousClock.now
        let mayRefetch = lastFetch.map { now - $0 >= minimumRefetchInterval } ?? true
        if mayRefetch && (now >= expiresAt || !keyIDs.contains(keyID)) {
            do {
                try await refresh()
            } catch  where !keyIDs.isEmpty {
                logger.warning("provider keys could not be refreshed; the cached ones stay", metadata: ["url": "\(url)"])
            }
        }
        guard keyIDs.contains(keyID) else { throw IdentityTokenError("no key '\(keyID.prefix(64))' in \(url)") }
        return keys
    }

    /// Joins the fetch in flight, or starts one.
    private func refresh() async throws {
        if let fetching { return try await fetching.value }
        let task = Task { try await self.fetch() }
        fetching = task
        defer { fetching = nil }
        try await task.value
    }

    private func fetch() async throws {
        lastFetch = .now
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await httpClient.execute(request, timeout: .seconds(10))
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw IdentityTokenError("the keys at \(url) could not be fetched: \(error)")
        }
        guard response.status == .ok else { throw IdentityTokenError("the keys at \(url) answered \(response.status.code)") }
        let set: JWKS
        do {
            set = try JSONDecoder().decode(JWKS.self, from: Data(buffer: body))
        } catch {
            throw IdentityTokenError("the keys at \(url) are not a JWKS")
        }
        let collection = JWTKeyCollection()
        var ids: Set<String> = []
        for var key in set.keys {
            guard let id = key.keyIdentifier?.string, key.keyType == .rsa || key.keyType == .ecdsa else { continue }
            // A key without `alg` would take the algorithm of the first token's header: pin it by key type.
            if key.algorithm == nil { key.algorithm = key.keyType == .rsa ? .rs256 : .es256 }
            do {
                try await collection.add(jwk: key)
                ids.insert(id)
            } catch {
                logger.warning("a provider key was skipped", metadata: ["url": "\(url)", "kid": "\(id)"])
            }
        }
        // Without a default key, a token naming no known key fails instead of trying another.
        _ = await collection.clearDefault()
        keys = collection
        keyIDs = ids
        expiresAt = .now + Self.cacheLifetime(response.headers["Cache-Control"])
    }

    /// `max-age` of a `Cache-Control` header, within reason; `no-store`/`no-cache` keep nothing.
    static func cacheLifetime(_ values: [String]) -> Duration {
        let directives = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if directives.contains("no-store") || directives.contains("no-cache") { return .zero }
        for directive in directives where directive.hasPrefix("max-age=") {
            if let seconds = Int(directive.dropFirst("max-age=".count)), seconds >= 0 {
                return min(.seconds(seconds), longestCache)
            }
        }
        return defaultCache
    }
}
