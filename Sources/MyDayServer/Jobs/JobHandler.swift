import SQLKit

/// What a finished job writes, applied in the transaction that marks the job succeeded, and only if
/// this worker still holds the job; so a job's result is stored once even if it ran twice.
typealias JobCompletion = @Sendable (any SQLDatabase) async throws -> Void

/// Runs the jobs of one kind. Jobs run at least once, so running one twice must give the same result.
protocol JobHandler: Sendable {
    var kind: String { get }
    /// Does the work, respecting task cancellation. Throw `JobFailure.permanent` when retrying cannot help.
    func run(_ job: JobRecord) async throws -> JobCompletion
    /// Runs in the transaction that gives the job up (after its last attempt, or a permanent failure).
    func jobDied(_ job: JobRecord, reason: String, in db: any SQLDatabase) async throws
}

/// A failure that no retry will mend (damaged audio, say); the job is given up at once.
struct JobFailure: Error, CustomStringConvertible {
    let description: String

    static func permanent(_ reason: String) -> JobFailure { JobFailure(description: reason) }
}
