import Foundation
import MyDaySearch
import NIOCore
import Synchronization

/// What names a page a responder answered: whose it is, and which of theirs.
protocol AccountPageKey: Hashable, Sendable {
    var userID: UUID { get }
    /// What the key holds beyond a few words of memory, counted with its page against the cache's bound.
    var heldBytes: Int { get }
}

/// A page of the entry list: its cursor and size.
struct EntryPageKey: AccountPageKey {
    let userID: UUID
    let cursor: Int
    let limit: Int

    var heldBytes: Int { 0 }
}

/// A page of a search: its query string as sent, and the days its date phrase meant when it was answered ("yesterday"
/// names another day tomorrow).
struct SearchPageKey: AccountPageKey {
    let userID: UUID
    let query: String
    let dates: LocalDayRange?

    /// A query string may be long (parameters the search ignores are not refused): it counts as the page does.
    var heldBytes: Int { query.utf8.count }
}

/// The JSON of pages answered lately, by account and page, each kept with the account's change sequence when it was
/// read. Every change to an entry moves that sequence in its own transaction (ADR 0003), so while it stands still the
/// page's rows are the same, whichever node changed them: a page is answered from here only when the sequence read for
/// the request equals the one it was kept with. Bounded by `maxBytes`; pages larger than `maxPageBytes` (a first
/// sync's, read once) are not kept.
final class PageCache<Key: AccountPageKey>: Sendable {
    private struct Page {
        let changeSeq: Int
        let body: ByteBuffer
        /// What the page counts against the bound: its bytes, its key's and the overhead.
        let size: Int
    }

    private struct Pages {
        var byKey: [Key: Page] = [:]
        var bytes = 0
        /// What each account's pages count.
        var bytesByAccount: [UUID: Int] = [:]

        mutating func insert(_ page: Page, for key: Key) {
            byKey[key] = page
            count(page.size, for: key.userID)
        }

        mutating func remove(_ key: Key) {
            guard let page = byKey.removeValue(forKey: key) else { return }
            count(-page.size, for: key.userID)
        }

        mutating func removeAll(of userID: UUID) {
            for key in byKey.keys.filter({ $0.userID == userID }) { remove(key) }
        }

        /// Removes pages, in no particular order, until they count at most `bound`.
        mutating func evict(downTo bound: Int) {
            var left = bytes
            let going = byKey.compactMap { key, page -> Key? in
                guard left > bound else { return nil }
                left -= page.size
                return key
            }
            for key in going { remove(key) }
        }

        private mutating func count(_ delta: Int, for userID: UUID) {
            bytes += delta
            let total = bytesByAccount[userID, default: 0] + delta
            bytesByAccount[userID] = total == 0 ? nil : total
        }
    }

    let maxBytes: Int
    let maxPageBytes: Int
    /// One account's share: an account past it makes room from its own pages, so that one person asking many
    /// different things never pushes out everyone else's.
    let maxAccountBytes: Int
    private let pages = Mutex(Pages())

    init(maxBytes: Int = 32 << 20, maxPageBytes: Int = 256 << 10, maxAccountBytes: Int? = nil) {
        self.maxBytes = maxBytes
        self.maxPageBytes = maxPageBytes
        self.maxAccountBytes = maxAccountBytes ?? maxBytes / 8
    }

    /// The page kept for `key`, if it was read at `changeSeq`.
    func page(_ key: Key, changeSeq: Int) -> ByteBuffer? {
        pages.withLock { pages in
            guard let page = pages.byKey[key], page.changeSeq == changeSeq else { return nil }
            return page.body
        }
    }

    /// What a kept page costs beyond its bytes and its key's: the dictionary's slot and the buffers' headers.
    static var overheadBytes: Int { 256 }

    /// The bytes `body` kept under `key` counts against `maxBytes`.
    static func size(of body: ByteBuffer, under key: Key) -> Int {
        body.readableBytes + key.heldBytes + overheadBytes
    }

    /// Keeps `body`, read at `changeSeq`, unless a page read later is kept already. An account past its share first
    /// drops its own pages; when the cache is full, about half of all pages go.
    func keep(_ body: ByteBuffer, for key: Key, changeSeq: Int) {
        let size = Self.size(of: body, under: key)
        guard size <= maxPageBytes, size <= maxAccountBytes else { return }
        pages.withLock { pages in
            if let kept = pages.byKey[key] {
                guard kept.changeSeq < changeSeq else { return }
                pages.remove(key)
            }
            if pages.bytesByAccount[key.userID, default: 0] + size > maxAccountBytes { pages.removeAll(of: key.userID) }
            if pages.bytes + size > maxBytes { pages.evict(downTo: maxBytes / 2) }
            pages.insert(Page(changeSeq: changeSeq, body: body, size: size), for: key)
        }
    }

    /// Drops every page of `userID` (their account closed).
    func forget(userID: UUID) {
        pages.withLock { $0.removeAll(of: userID) }
    }

    /// The bytes every kept page counts, with its key and overhead.
    var keptBytes: Int { pages.withLock { $0.bytes } }
}

/// The pages the list's and the search's responders answered lately (ADR 0026), dropped together when an account
/// closes.
struct AnsweredPages: Sendable {
    let entries = PageCache<EntryPageKey>()
    let searches = PageCache<SearchPageKey>(maxBytes: 16 << 20)

    func forget(userID: UUID) {
        entries.forget(userID: userID)
        searches.forget(userID: userID)
    }
}
