import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// posix_spawn with the child's standard streams on the given descriptors, and signals as a shell leaves them.
///
/// Threads of Swift's pool block signals such as SIGTERM and SIGPIPE, and a spawned child inherits the mask of the
/// thread that spawned it: here the child starts with nothing blocked and every signal at its default.
enum Spawn {
    static func child(
        path: String, arguments: [String], environment: [String: String], input: Int32, output: Int32, errors: Int32
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(input, STDIN_FILENO), (output, STDOUT_FILENO), (errors, STDERR_FILENO)] {
            posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        }
        // Nothing else this process has open reaches the child, whether or not it was marked close-on-exec.
        for descriptor in openDescriptors() where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var nothingBlocked = sigset_t()
        sigemptyset(&nothingBlocked)
        posix_spawnattr_setsigmask(&attributes, &nothingBlocked)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = spawning.withLock { _ in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }

    /// A pipe whose two ends close on exec (the child gets its copy by dup2). Made and marked under `spawning`: a
    /// child that another thread spawned in between would keep a copy of the write end, and the reader here would
    /// wait for the end of the output as long as that child lives (Glibc's module does not offer `pipe2`).
    static func pipe() throws -> (read: Int32, write: Int32) {
        try spawning.withLock { _ in
            var descriptors: [Int32] = [-1, -1]
            guard Glibc.pipe(&descriptors) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return (descriptors[0], descriptors[1])
        }
    }

    /// Held while a pipe is made and marked, and while a child is spawned.
    private static let spawning = Mutex(())

    /// The descriptors this process has open now.
    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    /// Waits on a thread of its own for `pid` to end and hands its status to `ended`: the exit code, or 128 plus
    /// the signal that ended it, as shells report it.
    static func awaitExit(of pid: pid_t, _ ended: @escaping @Sendable (Int32) -> Void) {
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 {
                guard errno == EINTR else { return ended(-1) }
            }
            let signal = status & 0x7f
            ended(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
        }
    }
}
