import Foundation

/// How many large request bodies are read at once: a few in all and fewer per account, so memory stays bounded however
/// many arrive together and one account's slow bodies never hold every slot. A body that waits longer than
/// `waitLimit` for a slot is refused (503), and an account already sending `perAccount` is refused at once (429).
actor BodyReadingSlots {
    enum Refusal: Error, Equatable {
        case accountBusy
        case serverBusy
    }

    private let perAccount: Int
    private let waitLimit: Duration
    private var free: Int
    private var inUse: [String: Int] = [:]
    private var waiting: [(id: UUID, continuation: CheckedContinuation<Void, any Error>)] = []

    init(total: Int, perAccount: Int, waitLimit: Duration) {
        free = total
        self.perAccount = perAccount
        self.waitLimit = waitLimit
    }

    func acquire(for account: String) async throws {
        guard inUse[account, default: 0] < perAccount else { throw Refusal.accountBusy }
        inUse[account, default: 0] += 1
        if free > 0 {
            free -= 1
            return
        }
        let id = UUID()
        do {
            try await withCheckedThrowingContinuation { continuation in
                waiting.append((id, continuation))
                Task { [waitLimit] in
                    try? await Task.sleep(for: waitLimit)
                    self.expire(id)
                }
            }
        } catch {
            done(account)
            throw error
        }
    }

    func release(for account: String) {
        done(account)
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().continuation.resume() }
    }

    private func done(_ account: String) {
        let left = inUse[account, default: 1] - 1
        inUse[account] = left > 0 ? left : nil
    }

    private func expire(_ id: UUID) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: Refusal.serverBusy)
    }
}
