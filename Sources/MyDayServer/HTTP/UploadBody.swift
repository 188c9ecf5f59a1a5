import Hummingbird
import NIOCore

/// A request body whose read failures (the client hung up, the body was cut short) surface as
/// `UploadBody.Interrupted`, so they are told apart from failures of the server's own storage.
struct UploadBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    struct Interrupted: Error {}

    let base: RequestBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator

        mutating func next() async throws -> ByteBuffer? {
            do {
                return try await base.next()
            } catch {
                throw Interrupted()
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}
