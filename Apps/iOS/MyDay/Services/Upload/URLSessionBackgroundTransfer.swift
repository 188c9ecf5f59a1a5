import Foundation
import MyDayKit

/// Uploads on a background `URLSession`: the system carries them on while My Day is suspended or after it ended it,
/// and relaunches the app to report them (`AppDelegate` hands over the system's completion handler).
///
/// Sendable by hand: `network` changes only under `lock`, the rest is constant, and `URLSession` may be used from any
/// thread.
final class URLSessionBackgroundTransfer: BackgroundTransfer, @unchecked Sendable {
    static let shared = URLSessionBackgroundTransfer(identifier: (Bundle.main.bundleIdentifier ?? "MyDay") + ".uploads")

    let identifier: String
    let events: AsyncStream<BackgroundTransferEvent>
    private let session: URLSession
    private let lock = NSLock()
    private var network: NetworkConditionsMonitor?

    private init(identifier: String) {
        let (stream, continuation) = AsyncStream.makeStream(of: BackgroundTransferEvent.self)
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.isDiscretionary = false
        configuration.sessionSendsLaunchEvents = true
        self.identifier = identifier
        events = stream
        session = URLSession(
            configuration: configuration, delegate: BackgroundTransferDelegate(continuation: continuation), delegateQueue: nil)
    }

    /// Uploads started from now on follow the person's "Wi-Fi only" setting, also when the network changes under them.
    func follow(_ network: NetworkConditionsMonitor) {
        lock.withLock { self.network = network }
    }

    func startUpload(_ file: URL, to target: UploadTarget) async throws -> Int {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: file.path])
        }
        var request = URLRequest(url: target.url)
        request.httpMethod = "PUT"
        request.allowsExpensiveNetworkAccess = lock.withLock { network?.allowsExpensiveNetworks ?? true }
        for (name, value) in target.headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.uploadTask(with: request, fromFile: file)
        task.resume()
        return task.taskIdentifier
    }

    func runningTaskIDs() async -> Set<Int> {
        await withCheckedContinuation { continuation in
            session.getAllTasks { tasks in
                continuation.resume(returning: Set(tasks.map(\.taskIdentifier)))
            }
        }
    }

    /// The system relaunched My Day for this session's events; `completionHandler` runs once they were delivered and
    /// a short follow-up ran (at once when they were delivered before it came).
    @MainActor
    func handleEvents(forSession identifier: String, completionHandler: @escaping () -> Void) {
        guard identifier == self.identifier else { return completionHandler() }
        Task { await BackgroundSessionCompletion.shared.received(completionHandler) }
    }
}

/// The one `BackgroundEventsCompletion` of the uploads session; `followUp` (set at launch: the app's refresh, cut
/// short after a few seconds) runs between the session's events and the system's handler.
@MainActor
enum BackgroundSessionCompletion {
    static var followUp: @MainActor () async -> Void = {}
    static let shared = BackgroundEventsCompletion(followUp: { await followUp() })
}

/// Turns the session's callbacks into `BackgroundTransferEvent`s, in the order the session's serial queue delivers them.
private final class BackgroundTransferDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let continuation: AsyncStream<BackgroundTransferEvent>.Continuation

    init(continuation: AsyncStream<BackgroundTransferEvent>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        continuation.yield(.sent(taskID: task.taskIdentifier, bytes: totalBytesSent, of: totalBytesExpectedToSend))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let response = task.response as? HTTPURLResponse
        continuation.yield(
            .finished(
                taskID: task.taskIdentifier, status: response?.statusCode,
                retryAfter: response?.value(forHTTPHeaderField: "Retry-After"), error: error?.localizedDescription))
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        Task { @MainActor in await BackgroundSessionCompletion.shared.eventsDelivered() }
    }
}
